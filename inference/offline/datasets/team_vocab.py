"""What the kanban and chat builders name their boards, lanes, cards, buttons, people and messages.

The two builders drew from one list each (six topics, nine tasks, the lanes Todo, Doing and
Done, six chat lines), so the expert wrote those whatever a prompt named. As in
builder_vocab.py, each pool here is wide, the details name what was drawn, and a test checks
that no name of a pool appears in a UI4A-Bench dev prompt.
"""

from __future__ import annotations

# (what the board is for, the cards it can hold)
BOARDS = (
    (
        "shop launch",
        ("Order signage", "Hire cashier", "Set prices", "Test card reader", "Stock shelves"),
    ),
    ("garden makeover", ("Buy compost", "Dig beds", "Plant roses", "Fix fence", "Lay gravel")),
    ("podcast season", ("Book guests", "Record intro", "Edit episode 1", "Write show notes")),
    ("house move", ("Pack kitchen", "Book van", "Redirect post", "Return keys", "Clean oven")),
    ("app release", ("Freeze strings", "Update screenshots", "Bump version", "Submit build")),
    ("school fair", ("Print flyers", "Borrow tables", "Bake cookies", "Find raffle prizes")),
    ("office refit", ("Measure desks", "Order chairs", "Paint walls", "Move printers")),
    ("thesis", ("Read sources", "Outline chapter 2", "Interview teachers", "Meet supervisor")),
    ("charity run", ("Map route", "Order medals", "Recruit marshals", "Open sign-ups")),
    ("newsletter issue", ("Pick theme", "Interview reader", "Write lead story", "Proofread")),
)
LANE_SETS = (
    ("Next up", "Underway", "Wrapped up"),
    ("Someday", "Soon", "Handled"),
    ("Waiting", "Working on it", "Complete"),
    ("Parked", "Blocked", "Closed out"),
    ("Planned", "In motion", "Handed over"),
    ("Not started", "Started", "Checking", "Filed"),
    ("Proposed", "Approved", "Building", "Rolled out"),
    ("To sort", "Sorting", "Sorted"),
)
ADD_CARD_LABELS = ("Add task", "Add card", "Add", "Create card", "Add to board")
CARD_FIELD_LABELS = ("New task", "Card title", "Task", "What needs doing?")
REMOVE_LABELS = ("Remove", "Delete", "Archive", "Drop")
CARD_TAGS = ("Top priority", "Quick win", "Needs help", "Waiting on others")

# (who the conversation is with, what about, its lines in order: theirs first, then by turns)
CONVERSATIONS = (
    ("the landlord", ("The boiler is fixed.", "Great, thank you!", "Rent is due Friday.")),
    (
        "a tutor",
        ("Did you finish the essay?", "Almost, one page left.", "Send it by tonight.", "Will do."),
    ),
    ("the florist", ("Your bouquet is ready.", "Can I pick it up at 5?", "Yes, see you then.")),
    (
        "a teammate",
        ("The deploy went out.", "Any errors?", "None so far.", "Nice work."),
    ),
    ("a neighbour", ("Your parcel came to me.", "Oh thanks! I'll pop over.", "I'm home all day.")),
    ("the coach", ("Practice moved to 7.", "Same field?", "Yes, field B.", "Got it.")),
    ("a cousin", ("Are you coming Sunday?", "Wouldn't miss it.", "Bring the photos!")),
    ("the plumber", ("I can come Tuesday.", "Morning works best.", "9 o'clock then.")),
)
PRESENCE = (
    ("Online", "success"),
    ("Away", "warning"),
    ("Busy", "danger"),
    ("Active now", "success"),
)
SEND_LABELS = ("Send", "Reply", "Post", "Send message")
MESSAGE_FIELD_LABELS = ("Message", "Your reply", "Write something", "New message")
