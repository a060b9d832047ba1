"""The organizer's desk, the referee's screens and the desk's printing (tournaments/desk/)."""
