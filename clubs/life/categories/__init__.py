"""A player's category page: club organisers move a member's category with a date and a reason."""
