"""What the pricing, booking, auth, products and checkout builders name their tiers, venues, goods,
fields and buttons.

Those builders once drew from a handful of fixed names (five tiers, one booking form, one login
form) that their prompts seldom named, so the expert could learn the names by heart but not that
they come from the request. Each pool here is wide, the prompt names what was drawn, and a test
checks that no name of a pool appears in a UI4A-Bench dev prompt, so the bench can only be
helped by copying from the request.
"""

from __future__ import annotations

TIER_NAMES = (
    "Solo",
    "Duo",
    "Family",
    "Agency",
    "Lite",
    "Core",
    "Growth",
    "Indie",
    "Maker",
    "Premium",
    "Essential",
    "Advanced",
    "Bronze",
    "Gold",
    "Platinum",
    "Seedling",
    "Sprout",
    "Grove",
    "Pocket",
    "Everyday",
    "Academy",
    "Campus",
    "Nonprofit",
    "Explorer",
    "Voyager",
    "Captain",
    "Weekender",
    "Flex",
    "Casual",
    "Regular",
    "Devoted",
    "Small shop",
    "Growing team",
    "Whole company",
)
PERKS = (
    "Unlimited projects",
    "Priority support",
    "Analytics",
    "5 GB storage",
    "50 GB storage",
    "1 TB storage",
    "3 team members",
    "10 team members",
    "Unlimited members",
    "Email support",
    "Phone support",
    "Offline mode",
    "Version history",
    "Advanced reports",
    "Daily backups",
    "No ads",
    "HD streaming",
    "Early access",
    "Free shipping",
    "Monthly check-in",
    "Dedicated manager",
    "Custom branding",
    "Export to PDF",
    "2 screens",
    "4 screens",
    "Guest passes",
    "Member events",
    "100 uploads a month",
    "Unlimited uploads",
    "Shared calendars",
)
PRICES = (5, 7, 9, 10, 14, 15, 19, 20, 24, 29, 35, 39, 45, 59, 79, 99, 129, 199)
# (symbol, period as written on the card): how a price reads.
PRICE_FORMS = (("$", "/mo"), ("$", "/month"), ("€", "/mo"), ("£", "/mo"), ("$", " a month"))
CHOOSE_LABELS = ("Choose {name}", "Get {name}", "Start with {name}", "Pick {name}", "Select")
POPULAR_BADGES = ("Recommended", "Our pick", "Top choice", "Fan favourite")

# (place, what is booked, the picker's label, its options)
VENUES = (
    ("restaurant", "a table", "Seating", ("Inside", "Terrace", "Lounge", "Patio")),
    ("hair salon", "an appointment", "Hairdresser", ("Dara", "Tom", "Marta", "Kenji", "Lou")),
    ("tennis club", "a court", "Court", ("Court 1", "Court 2", "Court 3", "Clay court")),
    ("shared office", "a desk", "Floor", ("Maple", "Cedar", "Willow", "Birch", "Oak")),
    ("photographer", "a shoot", "Package", ("Headshots", "Family", "Still life", "Portrait")),
    ("bouldering hall", "a session", "Instructor", ("Sven", "Nadia", "Jamal", "Yuki")),
    ("spa", "a treatment", "Treatment", ("Massage", "Facial", "Sauna", "Hot stone")),
    ("cycle workshop", "a repair", "Repair", ("Tune-up", "Flat tyre", "Brakes", "Gears")),
    (
        "language school",
        "a lesson",
        "Course language",
        ("Portuguese", "German", "Italian", "Korean"),
    ),
    ("car wash", "a wash", "Wash", ("Outside only", "Inside and out", "Deluxe")),
    ("dog groomer", "a groom", "Dog weight", ("Under 10 kg", "10 to 25 kg", "Over 25 kg")),
    ("art school", "a class", "Technique", ("Watercolour", "Charcoal", "Oils", "Clay")),
)
PARTY_LABELS = ("Guests", "People", "Party size", "Players", "Seats", "Attendees")
CONTACT_FIELDS = (
    ("Name", "text"),
    ("Full name", "text"),
    ("Phone", "tel"),
    ("Mobile", "tel"),
    ("Email", "email"),
    ("Notes", "textarea"),
    ("Special requests", "textarea"),
)
BOOK_LABELS = ("Book", "Book now", "Request booking", "Confirm booking", "Hold my spot")

# Who signs in: the identifier's label and input kind.
IDENTIFIERS = (
    ("Email", "email"),
    ("Username", "text"),
    ("Email or username", "text"),
    ("Employee number", "text"),
    ("Student ID", "text"),
    ("Customer number", "text"),
    ("Phone number", "tel"),
    ("Account name", "text"),
)
SECRETS = ("Password", "Passcode", "Access code", "Secret phrase")
LOGIN_LABELS = ("Sign in", "Log in", "Continue", "Let me in", "Go", "Open my account")
SIGNUP_LABELS = ("Sign up", "Create account", "Register", "Get started", "Start my account")
HELP_LINKS = (
    "Forgot password?",
    "Need help?",
    "New here? Register",
    "Trouble signing in?",
    "Use a passkey",
)
SIGNUP_EXTRAS = (
    ("First name", "text"),
    ("Last name", "text"),
    ("Full name", "text"),
    ("Username", "text"),
    ("Date of birth", "date"),
    ("Company", "text"),
    ("Phone", "tel"),
)

# (shop, its goods with prices)
SHOPS = (
    (
        "patisserie",
        (("Sourdough loaf", 6), ("Cinnamon bun", 4), ("Rye bread", 5), ("Carrot cake", 22)),
    ),
    (
        "hardware store",
        (("Cordless drill", 89), ("Tape measure", 12), ("Claw hammer", 18), ("Spirit level", 15)),
    ),
    (
        "sports shop",
        (("Yoga mat", 35), ("Dumbbell pair", 45), ("Skipping rope", 9), ("Running socks", 12)),
    ),
    ("pet shop", (("Dog bed", 49), ("Cat tree", 79), ("Chew toy", 8), ("Bird feeder", 19))),
    (
        "stationery shop",
        (("Fountain pen", 28), ("Sketchbook", 14), ("Washi tape", 5), ("Desk planner", 19)),
    ),
    (
        "kitchen store",
        (("Chef's knife", 59), ("Cast iron pan", 45), ("Cutting board", 25), ("Teapot", 29)),
    ),
    ("toy shop", (("Jigsaw", 18), ("Kite", 22), ("Building blocks", 35), ("Plush fox", 19))),
    (
        "skincare shop",
        (("Lip balm", 6), ("Face cream", 24), ("Shampoo bar", 11), ("Sunscreen", 16)),
    ),
    (
        "gadget shop",
        (("Phone charger", 19), ("USB hub", 29), ("Webcam", 59), ("Power bank", 39)),
    ),
    ("cheese shop", (("Aged gouda", 14), ("Brie", 9), ("Blue stilton", 12), ("Goat cheese", 8))),
)
BUY_LABELS = ("Add to bag", "Buy now", "Add", "Add to order", "Put in cart")
CART_BADGES = ("Cart: {cart}", "Bag ({cart})", "{cart} in cart", "Items: {cart}")

SHIPPING = ("Economy", "Next day", "Courier", "Pickup in store", "Locker", "Same day", "Tracked")
PAYMENTS = ("Credit card", "Debit card", "PayPal", "Bank transfer", "Gift card", "Cash on delivery")
ADDRESS_FIELDS = (
    ("Full name", "text"),
    ("Email", "email"),
    ("Phone", "tel"),
    ("Street", "text"),
    ("Address", "text"),
    ("City", "text"),
    ("Postcode", "text"),
    ("Company name", "text"),
)
PAY_LABELS = ("Place order", "Pay now", "Complete purchase", "Confirm order", "Pay {total}")
