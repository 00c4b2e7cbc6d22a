"""Domain vocabularies for the composed ui dataset: what a screen is about, in its own words.

Each domain names its records, their columns, a form's fields, option lists, tabs, steps, stats,
a counter and a chart series. Kinds reserved for the independent dev set (inbox, calendar, music
player, quiz, invoice, leaderboard, timer, file browser, survey, FAQ, comparison table, order
tracking) have no domain here, and `HELD_OUT_WORDS` lets a test check that none leaks in.
"""

from __future__ import annotations

from dataclasses import dataclass

HELD_OUT_WORDS = (
    "inbox",
    "calendar",
    "music",
    "playlist",
    "song",
    "quiz",
    "invoice",
    "leaderboard",
    "timer",
    "stopwatch",
    "countdown",
    "file browser",
    "folder",
    "survey",
    "faq",
    "comparison",
    "tracking",
    "shipment",
)


@dataclass(frozen=True)
class FormField:
    label: str
    kind: str  # an input kind, or select / radio / checkbox / switch / textarea / slider
    options: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        return field_key(self.label)


def field_key(label: str) -> str:
    """The state key a field of this label binds: its words, lower case, joined by "_"."""
    words = "".join(c if c.isalnum() else " " for c in label.lower()).split()
    return "_".join(words)[:24]


@dataclass(frozen=True)
class Column:
    key: str
    kind: str  # how a cell is made: person, email, date, int, money, pct, status, word, city, code

    @property
    def label(self) -> str:
        return self.key.replace("_", " ").capitalize()


@dataclass(frozen=True)
class Domain:
    kind: str
    names: tuple[str, ...]  # what a person calls the screen
    item: str
    items: str
    columns: tuple[Column, ...]
    statuses: tuple[str, ...]  # values of the column whose kind is "status"
    words: tuple[str, ...]  # values of "word" columns and list items
    fields: tuple[FormField, ...]
    tabs: tuple[str, ...]
    steps: tuple[str, ...]
    stats: tuple[tuple[str, str], ...]  # (label, value)
    counter: str  # what a counter counts
    x: str  # a chart's x column
    xs: tuple[str, ...]
    ys: tuple[str, ...]
    toggles: tuple[str, ...]
    danger: str  # a destructive action that deserves a confirmation dialog
    # Lists drawn across all domains (mixed_vocab.py): its prompts phrase option lists freely.
    mixed: bool = False

    @property
    def status_column(self) -> Column | None:
        return next((c for c in self.columns if c.kind == "status"), None)


def _cols(text: str) -> tuple[Column, ...]:
    return tuple(Column(*part.split(":")) for part in text.split())


def _fields(text: str) -> tuple[FormField, ...]:
    out = []
    for part in text.split(";"):
        label, _, rest = part.strip().partition(":")
        kind, _, opts = rest.partition("=")
        out.append(FormField(label, kind, tuple(opts.split("|")) if opts else ()))
    return tuple(out)


def _stats(text: str) -> tuple[tuple[str, str], ...]:
    return tuple((a.strip(), b.strip()) for a, b in (p.split("=") for p in text.split(";")))


def _split(text: str) -> tuple[str, ...]:
    return tuple(p.strip() for p in text.split(","))


DAYS = "Mon,Tue,Wed,Thu,Fri,Sat,Sun"
MONTHS = "Jan,Feb,Mar,Apr,May,Jun,Jul,Aug"
WEEKS = "W1,W2,W3,W4,W5,W6"
QUARTERS = "Q1,Q2,Q3,Q4"

_RAW: list[tuple[str, ...]] = [
    # kind, names, item, items, columns, statuses, words, fields, tabs, steps, stats, counter,
    # x, xs, ys, toggles, danger
    (
        "gym",
        "gym membership manager,fitness club admin page,gym members screen",
        "member",
        "members",
        "name:person plan:status joined:date visits:int",
        "Basic,Premium,Student",
        "Yoga,Spin,HIIT,Pilates,Boxing,Rowing",
        "Full name:text; Email:email; Plan:select=Basic|Premium|Student; Start date:date; "
        "Phone:tel; Goals:textarea; Personal trainer:checkbox",
        "Classes,Trainers,Membership,Billing",
        "Plan,Details,Payment,Confirm",
        "Active members=1,284; Check-ins today=312; Monthly revenue=$38.6k; Classes this week=46",
        "check-ins",
        "day",
        DAYS,
        "checkins,signups",
        "Class reminders,Show my stats,Weekly report",
        "Cancel membership",
    ),
    (
        "recipes",
        "recipe box,recipe manager,cooking recipes app",
        "recipe",
        "recipes",
        "title:word cuisine:status minutes:int rating:int",
        "Italian,Mexican,Thai,Indian",
        "Lasagna,Tacos,Pad thai,Dal,Risotto,Ramen,Falafel,Paella",
        "Recipe name:text; Cuisine:select=Italian|Mexican|Thai|Indian; Servings:number; "
        "Prep time:number; Ingredients:textarea; Vegetarian:checkbox; "
        "Difficulty:radio=Easy|Medium|Hard",
        "Ingredients,Steps,Notes,Nutrition",
        "Basics,Ingredients,Method,Review",
        "Saved recipes=86; Cooked this month=14; Favourites=23; Avg rating=4.6",
        "servings",
        "month",
        MONTHS,
        "cooked,saved",
        "Metric units,Show calories,Hide spicy dishes",
        "Delete recipe",
    ),
    (
        "plants",
        "plant care tracker,houseplant watering app,indoor garden manager",
        "plant",
        "plants",
        "name:word room:status water_every:int last_watered:date",
        "Living room,Kitchen,Bedroom,Office",
        "Monstera,Fern,Pothos,Cactus,Basil,Orchid,Snake plant,Aloe",
        "Plant name:text; Room:select=Living room|Kitchen|Bedroom|Office; "
        "Water every (days):number; "
        "Sunlight:radio=Low|Medium|Bright; Notes:textarea; Pet safe:checkbox",
        "Today,All plants,Care tips",
        "Plant,Location,Schedule",
        "Plants=18; Need water today=4; Healthy=16; Rooms=5",
        "waterings",
        "week",
        WEEKS,
        "watered,misted",
        "Watering reminders,Frost alerts,Show care tips",
        "Remove plant",
    ),
    (
        "library",
        "library catalog,book lending desk,reading room catalog",
        "book",
        "books",
        "title:word author:person genre:status copies:int",
        "Fiction,History,Science,Poetry",
        "Dune,Emma,Beloved,Ulysses,Walden,Kindred,Middlemarch,Solaris",
        "Title:text; Author:text; Genre:select=Fiction|History|Science|Poetry; ISBN:text; "
        "Copies:number; Due date:date; Reference only:checkbox",
        "Catalog,Loans,Members,Returns",
        "Book,Borrower,Due date",
        "Books=12,480; On loan=934; Overdue=41; New this month=58",
        "copies",
        "month",
        MONTHS,
        "loans,returns",
        "Overdue emails,Allow renewals,Show covers",
        "Withdraw book",
    ),
    (
        "cars",
        "car rental desk,rental fleet page,car hire booking screen",
        "car",
        "cars",
        "model:word category:status seats:int daily_rate:money",
        "Compact,SUV,Van,Electric",
        "Corolla,Model 3,Golf,Transit,RAV4,Leaf,Civic,Ioniq",
        "Pickup city:text; Pickup date:date; Return date:date; "
        "Category:select=Compact|SUV|Van|Electric; Driver age:number; Extra insurance:checkbox; "
        "Child seat:switch",
        "Available,Rented,Maintenance",
        "Dates,Car,Extras,Payment",
        "Cars available=42; Rented today=17; Utilization=68%; Avg daily rate=$54",
        "rental days",
        "week",
        WEEKS,
        "rentals,returns",
        "Unlimited mileage,GPS,Roadside assistance",
        "Cancel rental",
    ),
    (
        "hotel",
        "hotel room manager,front desk screen,guest house rooms page",
        "room",
        "rooms",
        "room:code type:status guest:person nights:int",
        "Single,Double,Suite,Family",
        "Sea view,Garden,Courtyard,Penthouse,Loft,Annex",
        "Guest name:text; Email:email; Check-in:date; Check-out:date; "
        "Room type:select=Single|Double|Suite|Family; Guests:number; Breakfast:checkbox; "
        "Special requests:textarea",
        "Arrivals,In house,Departures,Housekeeping",
        "Stay,Room,Guest,Confirm",
        "Occupancy=84%; Arrivals today=23; Departures=19; Avg nightly rate=$142",
        "guests",
        "day",
        DAYS,
        "arrivals,departures",
        "Late checkout,Airport shuttle,Do not disturb",
        "Cancel reservation",
    ),
    (
        "realestate",
        "property listings page,real estate listings,apartment finder",
        "listing",
        "listings",
        "address:word city:city bedrooms:int price:money status:status",
        "For sale,Pending,Sold",
        "12 Oak St,4 Elm Ave,88 Bay Rd,9 Hill Ct,31 Park Ln,7 Mill Way",
        "Address:text; City:text; Bedrooms:number; Price:number; "
        "Property type:select=House|Apartment|Townhouse; Garage:checkbox; Description:textarea",
        "Photos,Details,Neighborhood,Agent",
        "Location,Details,Photos,Publish",
        "Active listings=318; Sold this month=27; Avg price=$412k; Days on market=21",
        "viewings",
        "month",
        MONTHS,
        "listed,sold",
        "Price alerts,Show sold homes,Map view",
        "Delete listing",
    ),
    (
        "jobs",
        "job board,hiring pipeline,applicant manager",
        "applicant",
        "applicants",
        "name:person role:word stage:status applied:date",
        "Applied,Interview,Offer,Hired",
        "Designer,Engineer,Analyst,Recruiter,Writer,Support lead",
        "Full name:text; Email:email; Role:select=Designer|Engineer|Analyst; "
        "Years of experience:number; Portfolio URL:url; Cover letter:textarea; Remote:switch",
        "Pipeline,Interviews,Offers,Archive",
        "Profile,Experience,Documents,Submit",
        "Open roles=14; Applicants=286; Interviews this week=19; Offers out=4",
        "interviews",
        "week",
        WEEKS,
        "applied,hired",
        "Anonymize names,Auto reject,Email candidates",
        "Reject applicant",
    ),
    (
        "crm",
        "sales CRM,leads pipeline,customer contacts screen",
        "lead",
        "leads",
        "company:word contact:person stage:status value:money",
        "New,Qualified,Proposal,Won",
        "Northwind,Globex,Initech,Umbrella,Hooli,Stark,Wayne,Soylent",
        "Company:text; Contact name:text; Email:email; Phone:tel; "
        "Stage:select=New|Qualified|Proposal|Won; Deal value:number; Notes:textarea",
        "Overview,Deals,Contacts,Activity",
        "Company,Contact,Deal,Review",
        "Pipeline value=$1.2M; Deals won=38; Win rate=27%; New leads=64",
        "calls",
        "month",
        MONTHS,
        "won,lost",
        "Daily digest,Auto assign leads,Show closed deals",
        "Delete lead",
    ),
    (
        "helpdesk",
        "support ticket desk,helpdesk queue,customer support console",
        "ticket",
        "tickets",
        "subject:word requester:person priority:status opened:date",
        "Low,Medium,High,Urgent",
        "Login issue,Refund request,Bug report,Billing question,Password reset,Slow page",
        "Subject:text; Email:email; Priority:select=Low|Medium|High|Urgent; "
        "Category:radio=Billing|Technical|Account; Description:textarea; Notify me:checkbox",
        "Open,Pending,Solved,All",
        "Problem,Details,Contact",
        "Open tickets=57; Avg first reply=1.8h; Solved today=43; Satisfaction=94%",
        "replies",
        "day",
        DAYS,
        "opened,solved",
        "Auto replies,Weekend coverage,Escalate urgent",
        "Close ticket",
    ),
    (
        "inventory",
        "warehouse inventory,stock manager,store inventory page",
        "product",
        "products",
        "sku:code name:word stock:int price:money category:status",
        "Tools,Garden,Kitchen,Electronics",
        "Hammer,Drill,Kettle,Hose,Lamp,Toaster,Rake,Speaker",
        "Product name:text; SKU:text; Category:select=Tools|Garden|Kitchen|Electronics; "
        "Quantity:number; Unit price:number; Reorder level:number; Discontinued:checkbox",
        "Stock,Suppliers,Reorders,Reports",
        "Product,Pricing,Stock,Review",
        "SKUs=1,920; Low stock=37; Stock value=$284k; Suppliers=26",
        "units",
        "month",
        MONTHS,
        "received,sold",
        "Low stock alerts,Auto reorder,Show archived",
        "Delete product",
    ),
    (
        "expenses",
        "expense tracker,monthly budget app,team expenses page",
        "expense",
        "expenses",
        "description:word category:status amount:money date:date",
        "Food,Travel,Rent,Software",
        "Groceries,Train ticket,Lunch,Hosting,Taxi,Coffee,Books,Gym",
        "Description:text; Amount:number; Date:date; Category:select=Food|Travel|Rent|Software; "
        "Paid by:radio=Me|Company; Receipt URL:url; Recurring:checkbox",
        "This month,Categories,Budgets,Reports",
        "Amount,Category,Receipt",
        "Spent this month=$2,340; Budget left=$660; Biggest category=Rent; Transactions=48",
        "receipts",
        "month",
        MONTHS,
        "spent,budget",
        "Round up savings,Monthly summary,Split with partner",
        "Delete expense",
    ),
    (
        "habits",
        "habit tracker,daily habits app,streak tracker",
        "habit",
        "habits",
        "habit:word frequency:status streak:int started:date",
        "Daily,Weekdays,Weekly",
        "Read,Meditate,Walk,Stretch,Journal,Drink water,Floss,Practice piano",
        "Habit name:text; Frequency:select=Daily|Weekdays|Weekly; Reminder time:text; "
        "Goal per week:number; Why it matters:textarea; Share progress:switch",
        "Today,Streaks,Stats",
        "Habit,Schedule,Reminder",
        "Longest streak=42 days; Done today=5; Completion=81%; Habits=7",
        "glasses of water",
        "day",
        DAYS,
        "done,missed",
        "Morning reminder,Evening review,Vacation mode",
        "Reset all streaks",
    ),
    (
        "trips",
        "trip planner,travel itinerary app,holiday planner",
        "trip",
        "trips",
        "destination:city start:date nights:int budget:money status:status",
        "Planned,Booked,Done",
        "Lisbon,Kyoto,Oslo,Lima,Cape Town,Reykjavik,Hanoi,Quebec",
        "Destination:text; Departure date:date; Nights:number; Travelers:number; "
        "Budget:number; Trip style:radio=Relaxed|Balanced|Packed; Travel insurance:checkbox",
        "Itinerary,Packing,Budget,Documents",
        "Destination,Dates,Travelers,Confirm",
        "Trips this year=6; Countries=11; Days away=38; Budget used=72%",
        "travelers",
        "month",
        MONTHS,
        "spent,planned",
        "Price alerts,Offline maps,Share itinerary",
        "Delete trip",
    ),
    (
        "restaurant",
        "restaurant reservations desk,table booking screen,bistro host stand",
        "reservation",
        "reservations",
        "guest:person party:int time:word table:status",
        "Patio,Window,Bar,Main room",
        "18:00,18:30,19:00,19:30,20:00,20:30",
        "Name:text; Phone:tel; Date:date; Party size:number; "
        "Seating:select=Patio|Window|Bar|Main room; Occasion:radio=None|Birthday|Anniversary; "
        "Notes:textarea",
        "Tonight,Waitlist,Floor plan",
        "Date,Party,Contact",
        "Covers tonight=142; Waitlist=9; Tables free=6; No-shows=3",
        "guests",
        "day",
        DAYS,
        "covers,walkins",
        "SMS confirmations,Accept walk-ins,Show allergies",
        "Cancel reservation",
    ),
    (
        "vet",
        "vet clinic patients page,pet clinic records,animal hospital desk",
        "patient",
        "patients",
        "pet:word species:status owner:person age:int",
        "Dog,Cat,Rabbit,Bird",
        "Biscuit,Luna,Max,Pepper,Milo,Daisy,Rocky,Nala",
        "Pet name:text; Species:select=Dog|Cat|Rabbit|Bird; Owner name:text; Owner phone:tel; "
        "Age:number; Weight (kg):number; Vaccinated:checkbox; Symptoms:textarea",
        "Patients,Visits,Vaccines,Billing",
        "Pet,Owner,Visit reason",
        "Patients today=28; Vaccines due=12; Surgeries=3; New owners=7",
        "treats",
        "week",
        WEEKS,
        "visits,vaccines",
        "Vaccine reminders,Text owners,Show archived pets",
        "Archive patient",
    ),
    (
        "courses",
        "course enrollment page,student roster,class grades screen",
        "student",
        "students",
        "name:person course:status grade:int email:email",
        "Math,Biology,History,Art",
        "Algebra,Cells,Rome,Sketching,Geometry,Genetics,Empires,Color",
        "Student name:text; Email:email; Course:select=Math|Biology|History|Art; "
        "Year:radio=First|Second|Third; Start date:date; Scholarship:checkbox",
        "Roster,Grades,Attendance,Materials",
        "Student,Course,Schedule,Confirm",
        "Students=412; Avg grade=78; Attendance=93%; Courses=18",
        "credits",
        "week",
        WEEKS,
        "attendance,submissions",
        "Email parents,Show grades,Late submissions",
        "Unenroll student",
    ),
    (
        "volunteers",
        "volunteer shift planner,volunteer sign-up page,community center volunteers",
        "volunteer",
        "volunteers",
        "name:person shift:status hours:int phone:word",
        "Morning,Afternoon,Evening",
        "Food bank,Park cleanup,Reading club,Tool library,Soup kitchen,Tree planting",
        "Full name:text; Email:email; Phone:tel; Preferred shift:select=Morning|Afternoon|Evening; "
        "Skills:textarea; Over 18:checkbox",
        "Shifts,People,Hours",
        "About you,Availability,Agreement",
        "Volunteers=164; Hours this month=1,038; Open shifts=12; New sign-ups=21",
        "volunteers",
        "week",
        WEEKS,
        "hours,signups",
        "Shift reminders,Show my hours,Public profile",
        "Remove volunteer",
    ),
    (
        "fleet",
        "delivery fleet dashboard,vehicle maintenance log,fleet manager",
        "vehicle",
        "vehicles",
        "plate:code driver:person mileage:int service:status",
        "OK,Due soon,Overdue",
        "Van 1,Van 2,Truck 3,Bike 4,Car 5,Truck 6",
        "Plate number:text; Driver:text; Mileage:number; Last service:date; "
        "Fuel type:select=Diesel|Petrol|Electric; Notes:textarea",
        "Vehicles,Drivers,Service,Fuel",
        "Vehicle,Driver,Service plan",
        "Vehicles=58; On the road=41; Service due=7; Fuel cost=$12.4k",
        "deliveries",
        "week",
        WEEKS,
        "miles,stops",
        "Speed alerts,Idle warnings,Share live map",
        "Retire vehicle",
    ),
    (
        "projects",
        "project task board,team tasks page,sprint planner",
        "task",
        "tasks",
        "task:word owner:person state:status due:date points:int",
        "Todo,Doing,Review,Done",
        "Write brief,Fix login,Update docs,Design logo,Run tests,Plan sprint,Ship beta",
        "Task name:text; Owner:text; Due date:date; Points:number; "
        "State:select=Todo|Doing|Review|Done; Description:textarea; Blocker:checkbox",
        "Board,Backlog,Reports,Settings",
        "Task,Owner,Dates",
        "Open tasks=47; Done this sprint=31; Velocity=38 pts; Blocked=2",
        "story points",
        "week",
        WEEKS,
        "opened,closed",
        "Email updates,Show done tasks,Compact cards",
        "Archive project",
    ),
    (
        "bugs",
        "bug tracker,issue triage screen,QA defects page",
        "bug",
        "bugs",
        "title:word severity:status reporter:person reported:date",
        "Minor,Major,Critical",
        "Crash on save,Typo in footer,Slow search,Broken link,Wrong total,Login loop",
        "Title:text; Severity:select=Minor|Major|Critical; Steps to reproduce:textarea; "
        "Browser:radio=Chrome|Firefox|Safari; Reporter email:email; Regression:checkbox",
        "Open,Triaged,Fixed,Wontfix",
        "Summary,Reproduce,Environment",
        "Open bugs=132; Critical=4; Fixed this week=26; Median age=6 days",
        "reproductions",
        "week",
        WEEKS,
        "opened,fixed",
        "Auto assign,Notify reporter,Hide duplicates",
        "Delete bug",
    ),
    (
        "donations",
        "donation page,fundraising campaign screen,charity donors list",
        "donor",
        "donors",
        "name:person amount:money method:status date:date",
        "Card,Bank,PayPal",
        "Clean water,School meals,Shelter,Tree fund,Library,Clinic",
        "Full name:text; Email:email; Amount:number; Frequency:radio=Once|Monthly|Yearly; "
        "Fund:select=Clean water|School meals|Shelter; Anonymous:checkbox; Message:textarea",
        "Campaigns,Donors,Reports",
        "Amount,Details,Payment,Thanks",
        "Raised=$86,420; Donors=1,140; Goal reached=72%; Avg gift=$76",
        "donations",
        "month",
        MONTHS,
        "raised,donors",
        "Email receipts,Show donor wall,Match gifts",
        "Refund donation",
    ),
    (
        "workouts",
        "workout log,training journal,exercise planner",
        "workout",
        "workouts",
        "exercise:word type:status sets:int reps:int date:date",
        "Strength,Cardio,Mobility",
        "Squat,Bench press,Deadlift,Run,Row,Plank,Lunge,Pull-up",
        "Exercise:text; Type:select=Strength|Cardio|Mobility; Sets:number; Reps:number; "
        "Weight (kg):number; Effort:slider; Notes:textarea",
        "Today,History,Records,Plan",
        "Warm-up,Main set,Cool-down",
        "Workouts this month=17; Total volume=42,300 kg; Personal records=3; Streak=9 days",
        "push-ups",
        "day",
        DAYS,
        "minutes,calories",
        "Rest day reminders,Show heart rate,Use pounds",
        "Delete workout",
    ),
    (
        "assets",
        "IT asset register,laptop inventory,office equipment tracker page",
        "device",
        "devices",
        "tag:code model:word holder:person state:status",
        "In use,Spare,Repair,Retired",
        "MacBook Air,ThinkPad X1,Dell XPS,iPad,Monitor,Dock",
        "Asset tag:text; Model:text; Assigned to:text; Purchase date:date; "
        "State:select=In use|Spare|Repair|Retired; Under warranty:checkbox; Notes:textarea",
        "Devices,Licenses,Requests",
        "Device,Owner,Warranty",
        "Devices=640; In repair=12; Warranty ending=31; Spare laptops=18",
        "licenses",
        "month",
        MONTHS,
        "issued,returned",
        "Warranty alerts,Self-service requests,Show retired",
        "Retire device",
    ),
    (
        "parking",
        "parking permit desk,garage spaces manager,parking lot page",
        "permit",
        "permits",
        "plate:code holder:person zone:status expires:date",
        "Zone A,Zone B,Zone C,Visitor",
        "Level 1,Level 2,Roof,Basement,Gate,Lot East",
        "Plate number:text; Holder name:text; Email:email; Zone:select=Zone A|Zone B|Zone C; "
        "Start date:date; Electric vehicle:checkbox",
        "Permits,Spaces,Violations",
        "Vehicle,Zone,Payment",
        "Spaces free=86; Permits active=412; Violations today=5; Occupancy=79%",
        "cars parked",
        "day",
        DAYS,
        "entries,exits",
        "Renewal reminders,Guest passes,EV chargers only",
        "Revoke permit",
    ),
    (
        "lab",
        "lab sample register,research lab samples page,biobank log",
        "sample",
        "samples",
        "sample:code type:status collected:date volume:int",
        "Blood,Saliva,Tissue,Soil",
        "Freezer A,Freezer B,Shelf 3,Rack 7,Cold room,Bench 2",
        "Sample ID:text; Type:select=Blood|Saliva|Tissue|Soil; Collected on:date; "
        "Volume (ml):number; Storage:radio=Fridge|Freezer|Room; Hazardous:checkbox; Notes:textarea",
        "Samples,Storage,Results",
        "Sample,Storage,Consent",
        "Samples=3,812; Pending tests=64; Freezer use=71%; Results today=29",
        "aliquots",
        "week",
        WEEKS,
        "collected,tested",
        "Temperature alerts,Barcode labels,Show disposed",
        "Dispose sample",
    ),
    (
        "rentals",
        "tenant manager,rental property page,landlord dashboard",
        "tenant",
        "tenants",
        "name:person unit:code rent:money lease_end:date status:status",
        "Paid,Late,Pending",
        "Unit 1A,Unit 2B,Unit 3C,Unit 4D,Loft,Basement flat",
        "Tenant name:text; Email:email; Phone:tel; Unit:text; Monthly rent:number; "
        "Lease start:date; Pets allowed:checkbox",
        "Tenants,Units,Maintenance,Payments",
        "Tenant,Lease,Deposit",
        "Units=48; Occupied=45; Rent collected=$61.2k; Late payments=3",
        "repair requests",
        "month",
        MONTHS,
        "collected,late",
        "Auto rent reminders,Online payments,Maintenance requests",
        "End lease",
    ),
    (
        "freelance",
        "freelance client manager,consulting projects page,studio clients list",
        "client",
        "clients",
        "client:word contact:person rate:money hours:int status:status",
        "Active,Paused,Done",
        "Bluebird,Cedar Co,Lighthouse,Fox & Fig,Nomad,Peak Labs",
        "Client name:text; Contact email:email; Hourly rate:number; Start date:date; "
        "Project type:select=Design|Development|Writing; Retainer:switch; Brief:textarea",
        "Clients,Hours,Proposals",
        "Client,Scope,Rate,Contract",
        "Billable hours=126; Active clients=9; Earned this month=$11.3k; Utilization=74%",
        "hours",
        "week",
        WEEKS,
        "billable,internal",
        "Weekly summary,Show paused clients,Round hours",
        "Remove client",
    ),
    (
        "conference",
        "conference speakers page,meetup talks manager,speaker lineup",
        "speaker",
        "speakers",
        "name:person talk:word track:status minutes:int",
        "Web,Data,Design,Ops",
        "Scaling up,Design systems,Data at rest,Edge cases,Fast builds,Small models",
        "Full name:text; Email:email; Talk title:text; Track:select=Web|Data|Design|Ops; "
        "Talk length:radio=20 min|40 min; Abstract:textarea; First time speaker:checkbox",
        "Lineup,Rooms,Sponsors,Venue",
        "Speaker,Talk,Travel",
        "Speakers=48; Talks=52; Tickets sold=1,310; Sponsors=14",
        "attendees",
        "day",
        DAYS,
        "tickets,talks",
        "Live captions,Record talks,Show schedule gaps",
        "Withdraw talk",
    ),
    (
        "shelter",
        "animal shelter adoption page,pet adoption listings,rescue animals board",
        "animal",
        "animals",
        "name:word species:status age:int arrived:date",
        "Dog,Cat,Rabbit,Guinea pig",
        "Scout,Willow,Ziggy,Honey,Bean,Otis,Mochi,Juniper",
        "Your name:text; Email:email; Phone:tel; Animal:select=Dog|Cat|Rabbit; "
        "Home type:radio=House|Apartment|Farm; Other pets:checkbox; Why adopt:textarea",
        "Available,Adopted,Fostered",
        "About you,Home,Meet and greet",
        "Animals=64; Adopted this month=19; Foster homes=23; Days to adopt=17",
        "adoptions",
        "month",
        MONTHS,
        "adopted,arrived",
        "New arrival alerts,Show adopted,Foster mode",
        "Remove animal",
    ),
    (
        "portfolio",
        "stock portfolio page,investment holdings screen,crypto holdings view",
        "holding",
        "holdings",
        "symbol:code shares:int price:money sector:status",
        "Tech,Energy,Health,Retail",
        "ACME,GLBX,INIT,UMBR,HOOL,NWND",
        "Symbol:text; Shares:number; Buy price:number; Buy date:date; "
        "Sector:select=Tech|Energy|Health|Retail; Dividend reinvest:switch",
        "Holdings,Performance,Dividends,Watchlist",
        "Symbol,Amount,Review",
        "Portfolio value=$84,210; Day change=+1.3%; Dividends=$1,240; Positions=14",
        "shares",
        "month",
        MONTHS,
        "value,cost",
        "Price alerts,Show cents,Hide small positions",
        "Sell all",
    ),
    (
        "garden",
        "community garden planner,allotment plots page,vegetable garden planner",
        "plot",
        "plots",
        "plot:code gardener:person crop:word status:status",
        "Planted,Fallow,Harvest",
        "Tomatoes,Beans,Kale,Squash,Carrots,Lettuce,Peppers,Garlic",
        "Gardener name:text; Email:email; Plot size:select=Small|Medium|Large; "
        "Crops:textarea; Start date:date; Needs tools:checkbox",
        "Plots,Harvest,Tools,Rules",
        "Gardener,Plot,Agreement",
        "Plots=72; Waitlist=15; Harvest this week=210 kg; Volunteers=31",
        "seedlings",
        "month",
        MONTHS,
        "planted,harvested",
        "Frost alerts,Tool sharing,Show empty plots",
        "Release plot",
    ),
    (
        "newsletter",
        "newsletter subscribers page,mailing list manager,email campaigns screen",
        "subscriber",
        "subscribers",
        "email:email name:person segment:status joined:date",
        "Weekly,Monthly,Product news",
        "Welcome,Spring sale,Product update,Digest,Summer recap,Launch note",
        "Email:email; First name:text; Segment:select=Weekly|Monthly|Product news; "
        "Double opt-in:checkbox; Notes:textarea",
        "Subscribers,Campaigns,Templates,Stats",
        "Audience,Content,Schedule,Send",
        "Subscribers=18,240; Open rate=41%; Click rate=6.2%; Unsubscribes=0.3%",
        "sends",
        "week",
        WEEKS,
        "opens,clicks",
        "Track opens,Send test email,Pause sending",
        "Delete subscriber",
    ),
    (
        "cafe",
        "coffee shop point of sale,cafe menu manager,bakery counter screen",
        "menu item",
        "menu_items",
        "name:word category:status price:money stock:int",
        "Coffee,Tea,Pastry,Sandwich",
        "Latte,Flat white,Chai,Croissant,Bagel,Muffin,Cortado,Scone",
        "Item name:text; Category:select=Coffee|Tea|Pastry|Sandwich; Price:number; "
        "Size:radio=Small|Medium|Large; Oat milk:checkbox; Description:textarea",
        "Menu,Specials,Stock,Staff",
        "Item,Price,Photo",
        "Sales today=$1,842; Cups sold=386; Top item=Latte; Avg ticket=$7.40",
        "cups",
        "day",
        DAYS,
        "sales,customers",
        "Loyalty stamps,Show calories,Happy hour prices",
        "Remove item",
    ),
]


def _build(raw: tuple[str, ...]) -> Domain:
    (kind, names, item, items, cols, statuses, words, fields, tabs, steps, stats) = raw[:11]
    counter, x, xs, ys, toggles, danger = raw[11:]
    return Domain(
        kind=kind,
        names=_split(names),
        item=item,
        items=items,
        columns=_cols(cols),
        statuses=_split(statuses),
        words=_split(words),
        fields=_fields(fields),
        tabs=_split(tabs),
        steps=_split(steps),
        stats=_stats(stats),
        counter=counter,
        x=x,
        xs=_split(xs),
        ys=_split(ys),
        toggles=_split(toggles),
        danger=danger,
    )


DOMAINS: tuple[Domain, ...] = tuple(_build(raw) for raw in _RAW)
