"""Google Calendar: calendars, the calendar list, events with recurrence and attendees, free/busy and sharing
rules, after the Google Calendar API v3 (developers.google.com/calendar/api/v3/reference)."""
