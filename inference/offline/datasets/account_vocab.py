"""What the settings, profile and wizard builders name their switches, pickers, stats, buttons and
steps.

Those three builders drew from one short list each (eight switches, four roles, four wizards),
so the expert could answer their prompts from memory and wrote the same screen whatever was
asked. As in builder_vocab.py, each pool here is wide, the details name what was drawn, and a
test checks that no name of a pool appears in a UI4A-Bench dev prompt.
"""

from __future__ import annotations

# (a settings card's title, the switches it can hold)
SWITCH_GROUPS = (
    (
        "Notifications",
        ("Email alerts", "Push alerts", "Text alerts", "Monthly report email", "Mentions only"),
    ),
    (
        "Privacy",
        ("Public profile", "Show read receipts", "Personalised ads", "Searchable by phone"),
    ),
    ("Playback", ("Autoplay next episode", "Subtitles", "Skip intros", "Stream in high quality")),
    ("Security", ("Two-factor authentication", "Login warnings", "Remember this device")),
    ("Accessibility", ("Calm animations", "Large text", "High contrast", "Captions")),
    ("Editor", ("Spell check", "Auto-save", "Line numbers", "Word wrap", "Smart quotes")),
    ("Workouts", ("Rest reminders", "Voice coach", "Heart rate zones", "Share finished runs")),
    ("Sync", ("Sync over mobile data", "Back up photos", "Sync contacts", "Offline copies")),
)
# (a picker's label, its options): each is a select or a radio group on the settings screen.
SETTING_PICKERS = (
    ("Keyboard layout", ("QWERTY", "AZERTY", "Dvorak", "Colemak")),
    ("Start of week", ("Monday", "Sunday", "Saturday")),
    ("Clock", ("12-hour", "24-hour")),
    ("Map style", ("Streets", "Satellite", "Terrain")),
    ("Units", ("Metric", "Imperial")),
    ("Text size", ("Small", "Medium", "Large", "Huge")),
    ("Digest frequency", ("Daily", "Every Monday", "Monthly", "Never")),
    ("Video quality", ("Auto", "480p", "720p", "1080p")),
    ("Default view", ("List", "Grid", "Board")),
    ("Sort contacts by", ("First name", "Last name", "Company")),
)
SAVE_LABELS = ("Save changes", "Save", "Apply", "Update settings", "Save preferences", "Done")
SAVED_NOTES = ("Settings saved.", "Your changes are saved.", "Preferences updated.", "Saved!")

ROLES = (
    "Sommelier",
    "Marine biologist",
    "Sous chef",
    "Urban planner",
    "Violinist",
    "Paramedic",
    "Carpenter",
    "Translator",
    "Pilot",
    "Beekeeper",
    "Architect",
    "Climber",
    "Podcaster",
    "Potter",
    "Astronomer",
    "Cartographer",
    "Designer",
    "Founder",
)
# (a stat's label, the values it can show)
PROFILE_STATS = (
    ("Fans", ("1.2k", "845", "12k", "310")),
    ("Connections", ("94", "1,020", "18")),
    ("Articles", ("57", "212", "9")),
    ("Climbs", ("34", "120", "7")),
    ("Routes", ("88", "1,450")),
    ("Talks", ("12", "41")),
    ("Sketches", ("63", "5")),
    ("Streak", ("8 days", "23 days")),
    ("Lectures", ("480", "22")),
    ("Trips", ("14", "36")),
    ("Summits", ("6", "19")),
    ("Kudos", ("740", "3.1k")),
)
# (the button's label, what it says once pressed)
FOLLOW_ACTIONS = (
    ("Follow", "Following"),
    ("Connect", "Connected"),
    ("Subscribe", "Subscribed"),
    ("Add friend", "Friends"),
    ("Watch", "Watching"),
    ("Join", "Joined"),
)
# The edit dialog's fields beyond the name: label and input kind.
PROFILE_FIELDS = (
    ("Bio", "textarea"),
    ("Location", "text"),
    ("Website", "url"),
    ("Pronouns", "text"),
    ("Headline", "text"),
    ("Phone", "tel"),
    ("Birthday", "date"),
)
EDIT_LABELS = ("Edit profile", "Edit", "Update profile", "Change details")

# (what the wizard is for, its steps as (title, that step's field labels and kinds))
WIZARD_FLOWS = (
    (
        "club membership",
        (
            ("Your details", (("Name", "text"), ("Role", "text"))),
            ("Your team", (("Team name", "text"), ("Team size", "number"))),
            ("Invite", (("Invite by email", "email"),)),
        ),
    ),
    (
        "scholarship application",
        (
            ("Contact", (("Email", "email"), ("Phone", "tel"))),
            ("Experience", (("Years of experience", "number"), ("Last employer", "text"))),
            ("Portfolio", (("Portfolio URL", "url"),)),
            ("Cover letter", (("Why us?", "textarea"),)),
        ),
    ),
    (
        "project setup",
        (
            ("Basics", (("Project name", "text"),)),
            ("Repository", (("Repository URL", "url"), ("Default branch", "text"))),
            ("Owner", (("Owner", "text"),)),
        ),
    ),
    (
        "loan application",
        (
            ("Applicant", (("Full name", "text"), ("Date of birth", "date"))),
            ("Income", (("Employer", "text"), ("Yearly income", "number"))),
            ("Loan", (("Amount", "number"), ("Purpose", "textarea"))),
        ),
    ),
    (
        "pet adoption",
        (
            ("About you", (("Name", "text"), ("Email", "email"))),
            ("Your home", (("Garden size", "text"), ("Other animals", "textarea"))),
            ("The pet", (("Pet's name", "text"),)),
        ),
    ),
    (
        "store setup",
        (
            ("Shop", (("Shop name", "text"), ("Web address", "url"))),
            ("First product", (("Product name", "text"), ("Price", "number"))),
            ("Payouts", (("Bank account", "text"),)),
        ),
    ),
    (
        "holiday request",
        (
            ("Where", (("Destination", "text"),)),
            ("When", (("Leaving on", "date"), ("Coming back", "date"))),
            ("Who", (("Travellers", "number"),)),
            ("Budget", (("Budget per person", "number"),)),
        ),
    ),
    (
        "volunteer sign-up",
        (
            ("You", (("Name", "text"), ("Phone", "tel"))),
            ("Availability", (("Hours a week", "number"),)),
            ("Skills", (("Skills", "textarea"),)),
        ),
    ),
    (
        "tenant application",
        (
            ("Tenant", (("Full name", "text"), ("Email", "email"))),
            ("Current address", (("Street", "text"), ("Years there", "number"))),
            ("Move", (("Move-in date", "date"),)),
        ),
    ),
)
NEXT_LABELS = ("Next", "Continue", "Next step")
BACK_LABELS = ("Back", "Previous")
FINISH_LABELS = ("Finish", "Submit", "Send application", "Create", "Done")
FINISHED_NOTES = (
    "All done!",
    "Thanks, we got it.",
    "You're all set.",
    "Submitted. We'll be in touch.",
)
