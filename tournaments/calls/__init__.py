"""Calling the duplas to their mesa ("Sua vez", issue 24 point 13): the record of calls (``models.Call``), the
calls themselves (``services``), what the pages and the desk read of them (``selectors``), phone numbers for
WhatsApp (``phones``) and the e-mails sent outside the request (``mail``)."""
