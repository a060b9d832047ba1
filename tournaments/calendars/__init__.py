"""Calendars: iCalendar feeds of an event's schedule and of a dupla's jogos (``feeds``), in the event's zone (``zones``)."""
