package synth

// The words the conversational-memory generator builds its conversations
// from: all written for this project.

var memqaNames = []string{
	"Ines", "Tomas", "Priya", "Jonah", "Mireille", "Kofi", "Saskia", "Rafael", "Yuki", "Dmitri",
	"Aurora", "Bram", "Leila", "Osman", "Greta", "Nikhil", "Clara", "Emeka", "Hanna", "Lucio",
}

var memqaJobs = []string{
	"pastry chef", "bus driver", "pharmacist", "landscape architect", "radio producer", "carpenter",
	"veterinary nurse", "high school chemistry teacher", "museum guide", "data analyst", "bike mechanic", "midwife",
}

var memqaWorkplaces = []string{
	"a bakery downtown", "the city transit company", "a small pharmacy", "a design studio", "the local radio station",
	"a furniture workshop", "an animal clinic", "Northfield High", "the maritime museum", "an insurance firm",
}

var memqaCities = []string{
	"Lisbon", "Tallinn", "Valparaiso", "Kyoto", "Marrakesh", "Bergen", "Hobart", "Ljubljana", "Oaxaca", "Galway",
	"Tbilisi", "Hanoi", "Quebec City", "Cork", "Porto", "Kraków",
}

var memqaSpecies = []string{"beagle", "tabby cat", "parrot", "rabbit", "tortoise", "greyhound"}

var memqaPetNames = []string{
	"Biscuit", "Pepper", "Mango", "Ziggy", "Noodle", "Clementine", "Waffles", "Juniper", "Pixel", "Tofu", "Basil", "Comet",
}

var memqaInstruments = []string{"cello", "ukulele", "trumpet", "piano", "banjo", "drums", "flute", "accordion"}

var memqaColours = []string{"teal", "mustard yellow", "deep red", "sky blue", "forest green", "lavender", "charcoal grey"}

var memqaCrafts = []struct{ class, thing string }{
	{"pottery", "vase"}, {"woodworking", "stool"}, {"weaving", "wall hanging"}, {"glassblowing", "bowl"}, {"quilting", "quilt"},
}

// memqaEvents are things a speaker did on a day they then report.
var memqaEvents = []struct{ did, question string }{
	{"ran my first 10k race", "run a 10k race"},
	{"gave a talk at the community library", "give a talk at the community library"},
	{"went to a salsa night for the first time", "go to a salsa night"},
	{"planted an apple tree in the garden", "plant an apple tree"},
	{"passed my driving test", "pass a driving test"},
	{"climbed the old lighthouse with my cousins", "climb the lighthouse"},
	{"sold my first painting at the market", "sell a painting"},
}

// memqaPastEvents are things a speaker did "last year".
var memqaPastEvents = []struct{ did, question string }{
	{"walked the whole coastal trail", "walk the coastal trail"},
	{"learned to sail", "learn to sail"},
	{"built a treehouse for my nephews", "build a treehouse"},
	{"volunteered at the marathon", "volunteer at the marathon"},
}

// memqaInferences pair a habit a speaker mentions with a question whose
// answer is an inference from it: LoCoMo's open-domain category.
var memqaInferences = []struct{ says, question, answer string }{
	{"I spend most Sundays helping out at the animal shelter.", "Would %s likely consider adopting a rescue animal?", "Likely yes; %s volunteers at an animal shelter"},
	{"Honestly, big crowds make me anxious, I always leave early.", "Would %s enjoy a packed three-day music festival?", "Likely no; %s finds big crowds stressful"},
	{"I've been reading everything I can find about tide pools and sea slugs.", "What field might %s enjoy studying?", "Marine biology; %s is fascinated by sea life"},
	{"I gave up meat years ago and I don't miss it at all.", "Would %s order the steak at a barbecue?", "Likely no; %s does not eat meat"},
	{"Every morning starts with a swim in the lake, even in October.", "Is %s likely comfortable in cold water?", "Yes; %s swims in the lake into autumn"},
	{"I keep a notebook of every bird I spot on my walks.", "Would %s enjoy a guided birdwatching tour?", "Likely yes; %s logs the birds %s sees"},
}

// memqaSmallTalk is filler: turns that carry no fact a question asks about.
var memqaSmallTalk = []string{
	"How has your week been?",
	"Pretty busy, but the good kind of busy.",
	"The weather has been all over the place lately.",
	"I made soup last night and it actually turned out well.",
	"Did you catch the game on Saturday?",
	"Not really, I was catching up on sleep.",
	"I keep meaning to clean out the garage.",
	"That sounds like a lot, take it easy.",
	"I found a new café near the station, the coffee is great.",
	"We should grab lunch there sometime.",
	"My neighbour's renovation has been loud all week.",
	"I'm trying to drink more water, it's harder than it sounds.",
	"Work has been calmer since the holidays.",
	"I watched a documentary about glaciers, it was stunning.",
	"Traffic was terrible this morning.",
	"I finally fixed the squeaky door.",
	"Have you read anything good recently?",
	"Not lately, my attention span is shot.",
	"The kids next door started a lemonade stand.",
	"I've been going to bed earlier, it helps.",
}

var memqaAcks = []string{
	"Wow, that's great news!", "Oh nice, tell me more sometime.", "That's wonderful, I'm happy for you.",
	"Really? I had no idea.", "Ha, that sounds just like you.", "Good for you!", "That's so interesting.",
}

// memqaRequests are the user's everyday requests that fill LongMemEval
// haystacks, each with the assistant's reply.
var memqaRequests = [][2]string{
	{"How do I get limescale off a kettle?", "Fill it halfway with equal parts water and white vinegar, boil, let it sit an hour, then rinse well."},
	{"Can you suggest a name for a book club?", "A few ideas: Chapter & Verse, The Dog-Eared Pages, Plot Twist Society."},
	{"What's a good stretch for a stiff lower back?", "Try a knees-to-chest stretch: lie on your back and hug both knees for thirty seconds, three times."},
	{"How long should I boil an egg for a runny yolk?", "About six minutes from the moment it goes into boiling water, then straight into cold water."},
	{"Give me a quick tip for remembering people's names.", "Repeat the name back when you are introduced and link it to something about the person."},
	{"How often should I water a snake plant?", "Every two to three weeks; let the soil dry out fully between waterings."},
	{"What's the difference between baking soda and baking powder?", "Baking powder already contains an acid; baking soda needs one in the recipe to rise."},
	{"Can you help me write a polite reminder email about an unpaid invoice?", "Sure: 'Hi, a friendly reminder that invoice 1042 is now due. Let me know if anything is unclear. Thanks!'"},
	{"How do I stop my glasses fogging up with a mask?", "Pinch the mask's nose wire tightly and wash the lenses with a drop of dish soap, letting them air dry."},
	{"What are some indoor activities for a rainy afternoon?", "Board games, a puzzle, baking bread, or building a blanket fort if there are kids around."},
	{"How do I convert 180 Celsius to Fahrenheit?", "Multiply by 9/5 and add 32: 180 Celsius is 356 Fahrenheit."},
	{"Why does my bread come out dense?", "Usually too little kneading or proofing; try letting the dough rise until it has doubled."},
	{"Suggest a short warm-up before a run.", "Five minutes of brisk walking, then leg swings, high knees and a few short strides."},
	{"How do I keep cut flowers fresh longer?", "Trim the stems at an angle, change the water every two days and keep them out of direct sun."},
}

// memqaRecommendations are things the assistant recommends in a session:
// LongMemEval's single-session-assistant questions ask them back.
var memqaRecommendations = []struct{ ask, reply, question, answer string }{
	{"I'm looking for a mystery novel set somewhere cold.", "You might like 'The Frost Ledger' by Ana Korhonen, a slow-burn mystery in a Finnish harbour town.", "Which mystery novel set somewhere cold did you recommend to me?", "The Frost Ledger by Ana Korhonen"},
	{"Any ideas for a day hike near the coast?", "The Gull Point loop is a nice option: about 11 km with a lighthouse halfway.", "What day hike near the coast did you suggest, and how long was it?", "The Gull Point loop, about 11 km"},
	{"What houseplant survives in a dark bathroom?", "A cast iron plant would be my pick; it tolerates very low light.", "Which houseplant did you recommend for my dark bathroom?", "A cast iron plant"},
	{"Recommend a board game for four people who like trading.", "Harbour Barons works well for four and is built around trading goods.", "What board game did you recommend for four people who like trading?", "Harbour Barons"},
	{"What should I name my sourdough starter?", "How about Doughvid Bowie? Starters deserve a good pun.", "What name did you suggest for my sourdough starter?", "Doughvid Bowie"},
}

// memqaPreferences are user preferences stated in passing, with a later
// request whose good answer respects them, and the rubric LongMemEval's
// preference answers take.
var memqaPreferences = []struct{ says, question, answer string }{
	{"I'm vegetarian and I like food as spicy as it gets.", "Can you suggest something for dinner tonight?", "The user would prefer vegetarian dishes with a lot of heat, such as a spicy bean chilli or a vindaloo with vegetables; suggestions with meat or mild flavours fit less well."},
	{"I only read on my e-reader these days, paper books hurt my wrists.", "Any book recommendations for my holiday?", "The user would prefer titles available as e-books and would not want heavy hardcovers; suggestions should mention e-book availability."},
	{"I hate early mornings, I'm useless before ten.", "Can you plan a fun Saturday for me?", "The user would prefer a plan that starts late in the morning or after ten; early starts such as sunrise hikes fit badly."},
	{"I get seasick even on ferries.", "What should I do on my trip to the islands?", "The user would prefer activities on land, such as hiking or local food tours, and would not want boat tours or sailing."},
}

// memqaCountables are things a user does now and then, which a
// multi-session question counts.
var memqaCountables = []struct{ mention, question string }{
	{"I went to another concert yesterday, a string quartet this time.", "How many concerts have I mentioned going to?"},
	{"I just finished another jigsaw puzzle, a 1000-piece one.", "How many jigsaw puzzles have I told you I finished?"},
	{"I baked another loaf of rye bread this weekend.", "How many loaves of rye bread have I mentioned baking?"},
	{"Ran another trail race on Saturday!", "How many trail races have I told you about running?"},
}

// memqaUserFacts are facts a user states once in passing: LongMemEval's
// single-session-user questions ask them back.
var memqaUserFacts = []struct {
	says, question, answer string
	values                 []string
}{
	{"By the way, my commute is %s each way on the tram now.", "How long is my commute to work?", "%s", []string{"35 minutes", "50 minutes", "25 minutes"}},
	{"My sister just started a job in %s, so I'll visit her there.", "In which city did my sister start a new job?", "%s", []string{"Bergen", "Hobart", "Porto"}},
	{"We named the new kitten %s, the kids chose it.", "What did we name the new kitten?", "%s", []string{"Pickle", "Saffron", "Nimbus"}},
	{"I signed up for evening classes in %s at the community college.", "What evening classes did I sign up for?", "%s", []string{"Portuguese", "bookkeeping", "ceramics"}},
}

// memqaUpdates are facts a user states and later changes: LongMemEval's
// knowledge-update questions want the latest value.
var memqaUpdates = []struct {
	first, later, question string
	values                 [][2]string
}{
	{"My best time in the half marathon is %s so far.", "New personal best in the half marathon today: %s!", "What is my personal best time in the half marathon?", [][2]string{{"2:05", "1:58"}, {"1:52", "1:47"}}},
	{"I'm renting a flat on %s at the moment.", "We moved last weekend, our new place is on %s.", "What street do I live on?", [][2]string{{"Elm Street", "Harbour Road"}, {"Mill Lane", "Quarry Street"}}},
	{"My team at work has %s people right now.", "We hired a few more, my team is %s people now.", "How many people are on my team at work?", [][2]string{{"6", "9"}, {"4", "7"}}},
}

// memqaMilestones are pairs of dated events a user reports "today":
// LongMemEval's temporal-reasoning questions ask the days between them.
var memqaMilestones = []struct{ first, second, between string }{
	{"I started my pottery course today!", "Had my first pottery exhibition today, so nervous.", "starting my pottery course and my first pottery exhibition"},
	{"Today I booked the flights for our trip to Kyoto.", "We landed in Kyoto today, finally!", "booking the flights to Kyoto and landing there"},
	{"I adopted a rescue greyhound today.", "Took the greyhound to her first agility class today.", "adopting the greyhound and her first agility class"},
}

// memqaNearMisses mention something, and the abstention question asks a
// detail of it that was never given.
var memqaNearMisses = []struct{ says, question, answer, qtype string }{
	{"I finally bought a car, a little second-hand hatchback.", "What colour is my car?", "The information provided is not enough. You mentioned buying a second-hand hatchback but not its colour.", "single-session-user"},
	{"I went to another concert yesterday, a string quartet this time.", "How many opera performances have I mentioned going to?", "The information provided is not enough. You mentioned a string quartet concert but no opera performance.", "multi-session"},
	{"We moved last weekend, our new place is on Harbour Road.", "How much was the rent of my old flat?", "The information provided is not enough. You mentioned moving to Harbour Road but not the rent of your old flat.", "knowledge-update"},
	{"I started my pottery course today!", "How many days passed between starting my pottery course and my first glaze firing?", "The information provided is not enough. You mentioned starting a pottery course but not a glaze firing.", "temporal-reasoning"},
	{"My manager asked me to lead the spring project.", "What is my manager's name?", "The information provided is not enough. You mentioned your manager asking you to lead a project but not their name.", "single-session-user"},
	{"I got a new phone, the old one finally died.", "How much did my new phone cost?", "The information provided is not enough. You mentioned getting a new phone but not what it cost.", "single-session-user"},
}

// memqaAcksAssistant are the assistant's replies to a user's news.
var memqaAcksAssistant = []string{
	"That's great to hear! Let me know if I can help with anything related.",
	"Thanks for sharing that. Is there anything you'd like help with?",
	"Good to know, I'll keep that in mind.",
	"That sounds exciting! Anything I can do to help?",
}
