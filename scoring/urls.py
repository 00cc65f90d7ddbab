"""Result entry, confirmation, disputes and the audit log."""

urlpatterns: list = []
