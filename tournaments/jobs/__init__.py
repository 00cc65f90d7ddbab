"""Background jobs and the Excel export: one progress mechanism for every long task, the export as a job, its pages.

The workbook itself is written by the pure :mod:`tournaments.exports`.
"""
