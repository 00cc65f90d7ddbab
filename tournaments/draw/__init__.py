"""The open draw of numbers (book Part 9: «открытая номерная жеребьёвка»): the draw itself, its verification, the director's and the public pages."""
