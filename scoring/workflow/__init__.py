"""The result workflow: report and confirm, disputes and rulings, sanctions and results without play, leaving the event.

``problems`` is the ``workflow.*`` catalogue; ``event_details`` tells webhooks and emails about results and disputes.
"""
