"""The recording page's parts (``dashboard/views/record.py``).

A referee at the table records a game tap by tap. What the taps mean is here, each in
its own module that draws nothing (the words only ask the session's language): the
table recorded (:mod:`.table`), the taps of one entry so far and what comes next
(:mod:`.steps`), each entry as an event of the log
with its time (:mod:`.entries`), entries and findings in words (:mod:`.words`), the maze
as a chart a tap picks a cell of (:mod:`.maze_chart`), and the recording kept in the
store's draft (:mod:`.live`). The page itself is :mod:`.screen`, its pieces
:mod:`.panels`, and what each tap does :mod:`.taps`.
"""
