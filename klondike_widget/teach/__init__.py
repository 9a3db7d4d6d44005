"""Teaching material: the rules lessons of the notebooks.

:mod:`~klondike_widget.teach.lessons` (the eleven lessons), :mod:`~klondike_widget.teach.exercise`
(a lesson, its exercise and checker), :mod:`~klondike_widget.teach.page` (HTML, feedback, pictures).
"""
