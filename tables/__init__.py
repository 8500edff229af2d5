"""Tables and seats of a round, the seating algorithm, dealers and scorekeeper access."""
