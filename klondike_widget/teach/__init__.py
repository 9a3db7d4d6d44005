"""Teaching material: the rules lessons of the notebooks (:mod:`klondike_widget.teach.lessons`)."""
