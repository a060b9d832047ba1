"""The public pages of an event, the public súmula, the sign-up and the help pages (tournaments/public/)."""
