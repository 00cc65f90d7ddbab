"""Game records and match files (``.mat``): read, map to a match, compare, attach; the viewer, uploads, a round's bulk upload."""
