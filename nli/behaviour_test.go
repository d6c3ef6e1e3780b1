package nli

import "testing"

// TestBehaviourBothWays pins the aligning judge on hand-written pairs, each
// behaviour in both directions: the pair that should flip the verdict and
// the pair that should not. None of these sentences is in the training
// data.
func TestBehaviourBothWays(t *testing.T) {
	b, err := LoadAligner()
	if err != nil {
		t.Fatal(err)
	}
	const (
		exports = "Official figures show exports fell 8 percent in 2023 as demand weakened."
		mill    = "The mill closed its looms decades ago and no weaver has worked there since 1974."
		library = "The library opened its doors to readers in 1911 and has never closed since."
		bridge  = "The Golden Gate Bridge opened in 1937 after four years of construction."
		curie   = "Marie Curie was a physicist and chemist. She won two Nobel Prizes, in 1903 and 1911."
		wheat   = "Global wheat yields rose 8 percent in 2023. Fertiliser prices, which peaked in 2022, fell back over the year."
		harvest = "The harvest report came out in March. " + wheat + " Rain was plentiful across the plains."
		oldMill = "The old mill opened beside the river in 1850. Weavers came from across the county to work its looms. It closed in 1974 after a fire."
		pianist = "Ada Brandt (born May 3, 1931) was a German pianist and teacher."
		station = "The Vela Station is a research observatory in the Atacama Desert, Chile, run by a university consortium."
		singer  = "Paul McCartney was born in Liverpool in 1942."
		tower   = "The Eiffel Tower is a wrought-iron tower in Paris."
		museum  = "The museum is open every day except Monday."
	)
	tests := []struct {
		behaviour, claim, passage string
		want                      Label
	}{
		{"direction word against", "Exports rose by 8 percent in 2023.", exports, Contradict},
		{"direction word with", "Exports fell by 8 percent in 2023.", exports, Entail},
		{"direction word of another sentence against", "Global wheat yields fell 8 percent in 2023.", wheat, Contradict},
		{"direction word of another sentence with", "Global wheat yields rose 8 percent in 2023.", wheat, Entail},
		{"direction word of another sentence against, paragraph", "Global wheat yields fell 8 percent in 2023.", harvest, Contradict},
		{"direction word of another sentence with, paragraph", "Global wheat yields rose 8 percent in 2023.", harvest, Entail},
		{"direction word beside figures against", "Sales declined in 2022.", "Sales increased by 12% in 2022, the company said.", Contradict},
		{"direction word beside figures with", "Sales grew in 2022.", "Sales increased by 12% in 2022, the company said.", Entail},
		{"an account's opposite", "The government ran a surplus in 2019.", "The government ran a deficit of 4% of GDP in 2019.", Contradict},
		{"an account's same side", "The government ran a deficit in 2019.", "The government ran a deficit of 4% of GDP in 2019.", Entail},
		{"a bill defeated", "The bill passed the Senate.", "The bill was defeated in the Senate by a vote of 48 to 52.", Contradict},
		{"a bill defeated, said so", "The bill was defeated in the Senate.", "The bill was defeated in the Senate by a vote of 48 to 52.", Entail},
		{"antonym", "The water in the pool was cold.", "The water in the pool was hot.", Contradict},
		{"antonym absent", "The water in the pool was hot.", "The water in the pool was hot.", Entail},
		{"born against died", "The poet was born in 1795.", "The poet died in 1795 in Rome.", Contradict},
		{"born with born", "The poet was born in 1795.", "The poet was born in 1795 in London.", Entail},
		{"born against a death in order", "The poet was born in Rome.", "The poet died in Rome in 1989.", Neutral},
		{"born after the death", "The poet was born in 1995.", "The poet died in 1989 in Rome.", Contradict},
		{"negated state against", "The mill still employs weavers.", mill, Contradict},
		{"negated state with", "No weaver works at the mill.", mill, Entail},
		{"the passage negates the claim", "The company makes cars.", "The company does not make cars.", Contradict},
		{"the passage negates nothing", "The company makes cars.", "The company makes cars.", Entail},
		{"the claim negates the passage", "The film was never released in cinemas.", "The film was released in cinemas in 1998.", Contradict},
		{"both negate", "The film was never released in cinemas.", "The film was never released in cinemas.", Entail},
		{"a failure denies", "The drug reduced mortality.", "The drug failed to reduce mortality in the trial.", Contradict},
		{"a failure and a negation deny alike", "The drug did not reduce mortality.", "The drug failed to reduce mortality in the trial.", Entail},
		{"the one defeated lost", "Brazil lost the final.", "Germany defeated Brazil 2-1 in the final.", Entail},
		{"the one defeated did not win", "Brazil won the final.", "Brazil was defeated by Germany in the final.", Contradict},
		{"a refusal denies", "The mayor resigned.", "The mayor refused to resign despite the scandal.", Contradict},
		{"a refusal and a negation deny alike", "The mayor did not resign.", "The mayor refused to resign despite the scandal.", Entail},
		{"a verb of two words", "The CEO resigned in 2019.", "The CEO stepped down in 2019 after a decade in charge.", Entail},
		{"another verb of two words", "The singer was born in 2016.", "The singer passed away in 2016 at his home.", Contradict},
		{"a verb of two words for the claim's verb", "The council rejected the proposal.", "The council turned down the proposal on Monday.", Entail},
		{"a verb of two words for the verb's opposite", "The council approved the proposal.", "The council turned down the proposal on Monday.", Contradict},
		{"a verb of two words parted by its object", "The council rejected the proposal.", "The council turned the proposal down on Monday.", Entail},
		{"a verb of two words parted by its object, opposed", "The council approved the proposal.", "The council turned the proposal down on Monday.", Contradict},
		{"a verb of two words the stop list has", "The concert was cancelled.", "The concert was called off because of the storm.", Entail},
		{"a passage that states the claim, then denies something else", "The United States signed the treaty.", "The United States signed the treaty in 1997 but never ratified it.", Entail},
		{"a passage that states the claim's other part, then denies it", "The United States ratified the treaty.", "The United States signed the treaty in 1997 but never ratified it.", Contradict},
		{"still going, against an ending", "The factory is still in operation.", "The factory closed in 2015 after 80 years.", Contradict},
		{"no longer going, with an ending", "The factory is no longer in operation.", "The factory closed in 2015 after 80 years.", Entail},
		{"paraphrase has", "The library has been open since 1911.", library, Entail},
		{"paraphrase serves", "The museum serves the town.", "The town has a museum that serves its residents.", Entail},
		{"another subject", "The Harbour Bridge opened in 1932.", bridge, Neutral},
		{"same slot", "The Golden Gate Bridge opened in 1932.", bridge, Contradict},
		{"another name in the same slot", "The singer died at Rishi Hospital in Kochi.", "The singer died on 6 March 2016 at Amrita Hospital in Kochi.", Contradict},
		{"the same name in the same slot", "The singer died at Amrita Hospital in Kochi.", "The singer died on 6 March 2016 at Amrita Hospital in Kochi.", Entail},
		{"another country in the same slot", "The office building was a United Kingdom federal government complex.", "The office building was a United States federal government complex located in Oklahoma City.", Contradict},
		{"the same country in the same slot", "The office building was a United States federal government complex.", "The office building was a United States federal government complex located in Oklahoma City.", Entail},
		{"number within tolerance", "The city has about 2.1 million inhabitants.", "The city had 2,104,000 inhabitants at the last census.", Entail},
		{"number outside tolerance", "The city has about 3.4 million inhabitants.", "The city had 2,104,000 inhabitants at the last census.", Contradict},
		{"number one unit off", "12 workers died during the construction.", "11 workers died during the construction.", Contradict},
		{"number the same", "11 workers died during the construction.", "11 workers died during the construction.", Entail},
		{"date agrees", "The treaty was signed in March 1957.", "The treaty was signed on 25 March 1957 in Rome.", Entail},
		{"date differs", "The treaty was signed in 1962.", "The treaty was signed on 25 March 1957 in Rome.", Contradict},
		{"another name opening the claim", "Picasso painted the Mona Lisa.", "The Mona Lisa is a portrait painted by Leonardo da Vinci.", Neutral},
		{"the passage's name opening the claim", "Leonardo painted the Mona Lisa.", "The Mona Lisa is a portrait painted by Leonardo da Vinci.", Entail},
		{"another subject in the same definite role", "Sydney is the capital of Australia.", "Canberra is the capital city of Australia.", Contradict},
		{"the subject of the definite role", "Canberra is the capital of Australia.", "Canberra is the capital city of Australia.", Entail},
		{"another subject in the definite role, the role first", "Sydney is the capital of Australia.", "The capital of Australia is Canberra.", Contradict},
		{"the subject of the definite role, the role first", "Canberra is the capital of Australia.", "The capital of Australia is Canberra.", Entail},
		{"another subject in the definite role at another time", "Obama was the president of the United States.", "Biden is the president of the United States.", Neutral},
		{"another subject of the same superlative", "Lagos is the largest city in Nigeria.", "Kano is the largest city in Nigeria.", Contradict},
		{"the claim's subject ranked below in a second sentence", "The Danube is the longest river in Europe.", "The Volga is the longest river in Europe. The Danube is the second longest.", Contradict},
		{"the holder of the rank in a second sentence", "The Volga is the longest river in Europe.", "The Volga is the longest river in Europe. The Danube is the second longest.", Entail},
		{"another kind of thing", "Little Dorrit is a song by Charles Dickens.", "Little Dorrit is a novel by Charles Dickens, originally published in serial form between 1855 and 1857.", Contradict},
		{"the same kind of thing", "Little Dorrit is a novel by Charles Dickens.", "Little Dorrit is a novel by Charles Dickens, originally published in serial form between 1855 and 1857.", Entail},
		{"another subject with no definite role", "Sydney is a city in Australia.", "Canberra is a city in Australia.", Neutral},
		{"the first of another kind", "The first email was sent over the ARPANET in 1971.", "On 29 October 1969 a student at UCLA sent the first message over the ARPANET.", Neutral},
		{"the first of the same kind", "The first message was sent over the ARPANET in 1971.", "On 29 October 1969 a student at UCLA sent the first message over the ARPANET.", Contradict},
		{"completed in the year it began", "The Eiffel Tower was completed in 1887.", "Construction of the Eiffel Tower began in 1887 and finished in March 1889.", Contradict},
		{"completed in the year it finished", "The Eiffel Tower was completed in 1889.", "Construction of the Eiffel Tower began in 1887 and finished in March 1889.", Entail},
		{"a dimension in other words", "The tower is 324 metres tall.", "The tower stands 324 metres high.", Entail},
		{"another figure of the dimension", "The tower is 200 metres tall.", "The tower stands 324 metres high.", Contradict},
		{"a dimension as its noun", "The bridge is 2.7 kilometres long.", "The bridge has a total length of 2.7 kilometres.", Entail},
		{"another dimension", "The bridge is 2.7 kilometres wide.", "The bridge has a total length of 2.7 kilometres.", Neutral},
		{"a rank the passage gives otherwise", "Kano is the largest city in Nigeria.", "Kano is the second largest city in Nigeria.", Contradict},
		{"the rank the passage gives", "Kano is the second largest city in Nigeria.", "Kano is the second largest city in Nigeria, after Lagos.", Entail},
		{"a year within the claim's century", "The singer died in the 21st century.", "The singer died in 2016.", Entail},
		{"a year outside the claim's century", "The singer died in the 20th century.", "The singer died in 2016.", Contradict},
		{"quantifier stronger", "All birds can fly.", "Many birds can fly.", Neutral},
		{"quantifier weaker", "Some birds can fly.", "Most birds can fly.", Entail},
		{"quantifier against a passage with none", "Many farmers in the valley grow apples.", "Farmers in the valley grow apples and pears.", Entail},
		{"modal in passage", "Coffee causes cancer.", "Studies suggest coffee may cause cancer.", Neutral},
		{"modal in claim", "Coffee may cause cancer.", "Coffee causes cancer.", Entail},
		{"the month May is no modal, with", "Ada Brandt was a German pianist.", pianist, Entail},
		{"the month May is no modal, against", "Ada Brandt was a French pianist.", pianist, Contradict},
		{"a place within the claim's place", "Paul McCartney was born in England.", singer, Entail},
		{"another place in the same slot", "Paul McCartney was born in France.", singer, Contradict},
		{"a city within the claim's country", "The Eiffel Tower is in France.", tower, Entail},
		{"a city within another country", "The Eiffel Tower is in Germany.", tower, Contradict},
		{"the adjective of the claim's country", "Pink Floyd is a band from England.", "Pink Floyd were an English rock band.", Entail},
		{"the adjective of another country", "Pink Floyd is a band from France.", "Pink Floyd were an English rock band.", Contradict},
		{"a city within the claim's country of two words", "The museum is in the United Kingdom.", "The museum is in London.", Entail},
		{"a city within another country than the claim's", "The museum is in the United States.", "The museum is in London.", Contradict},
		{"a city within the claim's abbreviated country", "She lives in the U.S.", "She lives in Chicago.", Entail},
		{"a city within the passage's country", "Greta Garbo was born in Stockholm.", "Greta Garbo was born in Sweden in 1905.", Neutral},
		{"the passage's country", "Greta Garbo was born in Sweden.", "Greta Garbo was born in Sweden in 1905.", Entail},
		{"a city within the passage's country, negated", "Greta Garbo was not born in Stockholm.", "Greta Garbo was born in Sweden in 1905.", Neutral},
		{"the passage's country, negated", "Greta Garbo was not born in Sweden.", "Greta Garbo was born in Sweden in 1905.", Contradict},
		{"a city within the passage's country, another year", "Greta Garbo was born in Stockholm in 1906.", "Greta Garbo was born in Sweden in 1905.", Contradict},
		{"a country within the passage's continent", "The film earned $46 million in the United States.", "The film grossed $46 million in North America.", Neutral},
		{"countries that make up the passage's continent", "The film earned $46 million in the United States and Canada.", "The film grossed $46 million in North America.", Entail},
		{"a city beside the passage's, in one country", "The charter was signed in New York City, United States.", "The charter was signed in San Francisco, United States, in 1945.", Contradict},
		{"the passage's city, in one country", "The charter was signed in San Francisco, United States.", "The charter was signed in San Francisco, United States, in 1945.", Entail},
		{"a country's adjective against another's", "Duff McKagan is Canadian.", "Duff McKagan is an American musician.", Contradict},
		{"a country's adjective against its own", "Duff McKagan is American.", "Duff McKagan is an American musician.", Entail},
		{"a city within an abbreviated country, another country claimed", "Austin is in Canada.", "Austin is the capital of the U.S. state of Texas.", Contradict},
		{"placed outside a name against", "The Vela Station is located outside Chile.", station, Contradict},
		{"placed in a name with", "The Vela Station is located in Chile.", station, Entail},
		{"something other than against", "The Vela Station is something other than a research observatory.", station, Contradict},
		{"something other than absent", "The Vela Station is a research observatory.", station, Entail},
		{"a day the passage excepts", "The museum is open on Mondays.", museum, Contradict},
		{"a day the exception leaves", "The museum is open on Tuesdays.", museum, Entail},
		{"a day the passage excepts, denied", "The museum is not open on Mondays.", museum, Entail},
		{"a day the passage excepts, the opposite word", "The museum is closed on Mondays.", museum, Entail},
		{"a day the exception leaves, the opposite word", "The museum is closed on Tuesdays.", museum, Contradict},
		{"every day against an exception", "The museum is open every day.", museum, Contradict},
		{"the same exception", "The museum is open every day except Monday.", museum, Entail},
		{"a member the passage excepts", "Smith voted for the bill.", "All members except Smith voted for the bill.", Contradict},
		{"a name the passage does not count among all", "Jones voted for the bill.", "All members except Smith voted for the bill.", Neutral},
		{"a month the exception leaves", "The shop opens in April.", "The shop is open every month except March.", Entail},
		{"a claim of what can happen against a hedged passage", "The drug can cause weight loss.", "The drug may cause weight loss in some patients.", Entail},
		{"a definitive claim against a hedged passage", "The drug causes weight loss.", "The drug may cause weight loss in some patients.", Neutral},
		{"one term against two", "The president served one term.", "He was elected in 2008 and re-elected in 2012, serving two terms.", Contradict},
		{"a factor the figures give", "The company's revenue doubled in 2021.", "Revenue rose from $2 billion in 2020 to $4.1 billion in 2021.", Entail},
		{"a factor the figures deny", "The company's revenue tripled in 2021.", "Revenue rose from $2 billion in 2020 to $4.1 billion in 2021.", Contradict},
		{"a vague amount too small", "Hundreds of people died in the earthquake.", "The earthquake killed at least 2,300 people.", Contradict},
		{"a vague amount that fits", "Thousands of people died in the earthquake.", "The earthquake killed at least 2,300 people.", Entail},
		{"a word made from the claim's", "The company went bankrupt.", "The company filed for bankruptcy in 2009.", Entail},
		{"a word made from the claim's, denied", "The company never went bankrupt.", "The company filed for bankruptcy in 2009.", Contradict},
		{"the holder of the superlative is larger", "Russia is larger than Canada.", "Russia is the largest country in the world, followed by Canada.", Entail},
		{"the other is not larger", "Canada is larger than Russia.", "Russia is the largest country in the world, followed by Canada.", Contradict},
		{"a link denied", "Coffee consumption causes cancer.", "A large review found no link between moderate coffee consumption and cancer.", Contradict},
		{"a link asserted", "Coffee consumption is linked to cancer.", "Several studies have linked heavy coffee consumption to cancer.", Entail},
		{"a ratio of risks below one", "Statins lower the risk of dementia.", "Statin use was associated with a lower risk of dementia (hazard ratio 0.82, 95% CI 0.71 to 0.95).", Entail},
		{"a ratio of risks against the claim", "Statins increase the risk of dementia.", "Statin use was associated with a lower risk of dementia (hazard ratio 0.82, 95% CI 0.71 to 0.95).", Contradict},
		{"a role held now, against a tenure that ended", "Bloomberg is the current mayor of New York.", "Michael Bloomberg served as mayor of New York City from 2002 to 2013.", Contradict},
		{"a role held before, against a tenure that ended", "Bloomberg was mayor of New York.", "Michael Bloomberg served as mayor of New York City from 2002 to 2013.", Entail},
		{"a claim the passage calls a myth", "Bulls are enraged by the colour red.", "It is a myth that bulls are enraged by the colour red.", Contradict},
		{"the denial of a claim the passage calls a myth", "Bulls are not enraged by the colour red.", "It is a myth that bulls are enraged by the colour red.", Entail},
		{"one in five against its share", "One in five adults smokes.", "About 20% of adults smoke.", Entail},
		{"one in three against another share", "One in three adults smokes.", "About 20% of adults smoke.", Contradict},
		{"open since, against a closing", "The shop has been open since 1990.", "The shop opened in 1990 and closed in 2005.", Contradict},
		{"closed since, against the closing", "The factory has been closed since 2015.", "The factory closed in 2015 after 80 years.", Entail},
		{"a signature against a veto", "The president signed the bill.", "The president vetoed the bill on Friday.", Contradict},
		{"a signature against a signature", "The president signed the bill.", "The president signed the bill into law on Friday.", Entail},
		{"another name, the passage's pronoun resolved", "Charles Babbage died in 1852.", "Ada Lovelace was an English mathematician. She died of uterine cancer in 1852 at the age of 36.", Neutral},
		{"the name, the passage's pronoun resolved", "Ada Lovelace died in 1852.", "Ada Lovelace was an English mathematician. She died of uterine cancer in 1852 at the age of 36.", Entail},
		{"the late part of a decade", "The company was founded in the late 1990s.", "The company was founded in 1991 in Austin.", Contradict},
		{"the early part of a decade", "The company was founded in the early 1990s.", "The company was founded in 1991 in Austin.", Entail},
		{"a length of time in parts, about right", "The trip takes about three hours.", "The journey lasts 2 hours and 50 minutes.", Entail},
		{"a length of time in parts, far off", "The trip takes about five hours.", "The journey lasts 2 hours and 50 minutes.", Contradict},
		{"number one against number three", "The song reached number one in the UK.", "The single peaked at number three on the UK Singles Chart.", Contradict},
		{"number three against number three", "The song reached number three in the UK.", "The single peaked at number three on the UK Singles Chart.", Entail},
		{"two terms against two", "The president served two terms.", "He was elected in 2008 and re-elected in 2012, serving two terms.", Entail},
		{"a share below the claim's quantifier", "Most residents voted for the plan.", "Only 30% of residents voted for the plan.", Contradict},
		{"a share within the claim's quantifier", "Most residents voted for the plan.", "About 62 percent of the residents voted for the plan.", Entail},
		{"a length within the span of years", "The war lasted six years.", "The war lasted from 1939 to 1945.", Entail},
		{"a length outside the span of years", "The war lasted ten years.", "The war lasted from 1939 to 1945.", Contradict},
		{"a verdict reversed", "The drug was rejected in 2019.", "Regulators approved the drug in 2019 after a two-year review.", Contradict},
		{"the same verdict", "The drug was approved in 2019.", "Regulators approved the drug in 2019 after a two-year review.", Entail},
		{"a converse verb in the passive", "The company was sold for $2.5 billion.", "Microsoft bought the company in 2014 for $2.5 billion.", Entail},
		{"a converse verb in the active", "Microsoft sold the company.", "Microsoft bought the company in 2014 for $2.5 billion.", Contradict},
		{"a comparison the figures bear out", "The river is shorter than the Danube.", "The river is 1,200 km long, while the Danube is 2,850 km long.", Entail},
		{"a comparison the figures refute", "The river is longer than the Danube.", "The river is 1,200 km long, while the Danube is 2,850 km long.", Contradict},
		{"pronoun agrees", "Marie Curie won two Nobel Prizes.", curie, Entail},
		{"pronoun disagrees", "Marie Curie won three Nobel Prizes.", curie, Contradict},
		{"pronoun for a noun phrase two sentences back agrees", "The old mill closed in 1974.", oldMill, Entail},
		{"pronoun for a noun phrase two sentences back disagrees", "The old mill closed in 1964.", oldMill, Contradict},
	}
	for _, tt := range tests {
		t.Run(tt.behaviour, func(t *testing.T) {
			j := judgeOne(t, b, tt.claim, tt.passage)
			if got := top(j); got != tt.want {
				t.Errorf("%q | %q: judged %v (%+v), want %v", tt.claim, tt.passage, got, j, tt.want)
			}
		})
	}
}
