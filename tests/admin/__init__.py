"""The Django admin (tournaments/admin/): edits refresh the pages, saves keep the round trip."""
