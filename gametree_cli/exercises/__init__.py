"""Handouts: exercise sheets, their keys and answer files, one variant per student.

``choose`` picks trees worth asking about (seeded generation, rejection on
the search record's facts); ``roster`` reads the class list; ``wording``
holds the sentences in English and Spanish; ``sheet`` writes the LaTeX
documents; ``pdf`` compiles them; ``folder`` writes the output folder
without losing anything that was there.
"""
