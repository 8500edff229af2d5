"""Games and results, rulings and standings; the rules engine lives in games.kalooki."""
