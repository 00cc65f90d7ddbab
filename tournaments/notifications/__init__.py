"""Telling people what happened: email notifications with their opt-out, players' emails, webhooks with their signed deliveries and pages, and the background tasks that send them.

They all hear :mod:`tournaments.events`; ``event_details`` says what an event is about.
"""
