"""The recording page's parts that need no Streamlit.

A referee at the table records a game tap by tap (``dashboard/views/record.py``). What
the taps mean is here, each in its own module: the table recorded (:mod:`.table`), the
taps of one entry so far and the entry they make (:mod:`.steps`), each entry as an event
of the log with its time (:mod:`.entries`), entries and findings in words
(:mod:`.words`), the maze as a chart a tap picks a cell of (:mod:`.maze_chart`), and the
recording itself, kept in the store's draft (:mod:`.live`).
"""
