"""The súmula API, its JSON body reader and its OpenAPI schema (tournaments/api/), and the attack probe."""
