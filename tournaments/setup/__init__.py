"""Setting up an event: the creation wizard and its presets, settings, sections, officials, the tie-break picker's preview.

``services`` saves a setup whoever asks (the pages, the write API); ``problems`` is the ``setup.*`` catalogue.
"""
