"""Organiser pages: generate, adjust and publish rounds."""

urlpatterns: list = []
