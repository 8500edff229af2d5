"""Tables and seats of a round, the seating (modes, pinned seats, designs from mathematics), first
dealers and scorekeeper access. Imports `tournament` and `games`; `seating` and `designs` are plain
Python."""
