"""HTTP pages and htmx answers: parse, call the services, render."""
