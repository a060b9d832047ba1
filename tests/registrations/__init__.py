"""Registration services and the registration CSV (tournaments/registrations/)."""
