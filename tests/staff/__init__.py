"""The people of a tournament and their roles (tournaments/staff/)."""
