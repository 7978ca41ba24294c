"""What the LLM-as-judge scorers need below them: criteria as data (``criteria``) and agreement between judges
(``agreement``)."""
