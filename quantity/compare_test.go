package quantity

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/verity-fc/verity/evidence"
)

// longPassage holds many figures, most of them unrelated to any one claim.
const longPassage = "The city of Northport was founded in 1850 and had 900,000 residents in 1950. " +
	"Today the city has 3.1 million residents, 45 parks and 12 museums. The main bridge, opened in 1932, " +
	"is 1,200 metres long and carries 80,000 vehicles a day. The port handled 42 million tonnes of cargo " +
	"in 2022, up 4% on the year before, and employs 15,000 people. Average rainfall is 800 mm a year."

func TestCompare(t *testing.T) {
	ok := evidence.NumCheck{Applicable: true, OK: true}
	na := evidence.NumCheck{}
	bad := func(pairs ...string) evidence.NumCheck {
		nc := evidence.NumCheck{Applicable: true}
		for i := 0; i+1 < len(pairs); i += 2 {
			nc.Mismatches = append(nc.Mismatches, evidence.Mismatch{Claim: pairs[i], Source: pairs[i+1]})
		}
		return nc
	}
	tests := []struct {
		name, claim, source string
		want                evidence.NumCheck
	}{
		// The cases the seed and the design name.
		{"seed: exceeded 9,000 vs 9,210 satellites",
			"The official number of active spacecraft orbiting Earth, as of the beginning of 2024, exceeded 9,000.",
			"Our database recorded 9,210 operational satellites as of January 1, 2024, confirming the growth trend.", ok},
		{"money mismatch reports both figures", "Revenue reached $50B last year.", "Revenue reached $30 billion last year.", bad("$50B", "$30 billion")},
		{"celsius spelled vs symbol", "Warming has reached 1.1 degrees Celsius.", "Warming has reached 1.1°C above pre-industrial levels.", ok},
		{"about 31% within one unit of 30%", "Coal causes 30% of global emissions.", "Coal causes about 31% of global emissions.", ok},
		{"year off by one", "The Paris Agreement was adopted in 2015.", "The Paris Agreement was adopted in 2016.", bad("2015", "2016")},
		{"196 vs 195 countries", "196 countries signed the agreement.", "195 countries signed the agreement.", ok},
		{"under 5% vs 7%", "Unemployment is under 5%.", "Unemployment is 7%.", bad("under 5%", "7%")},

		// Applicability.
		{"no quantity in claim", "The sky is blue.", "The sky was 12% bluer.", na},
		{"no comparable quantity in source", "Revenue was $5 billion.", "Revenue grew 12% in 2020.", na},
		{"different currencies are not compared", "It cost $30 billion.", "It cost €30 billion.", na},
		{"celsius and fahrenheit are not converted", "It reached 40°C.", "It reached 104°F.", na},
		{"empty source", "It reached 40°C.", "", na},

		// Tolerances.
		{"exact 30% vs 31% within one unit", "Turnout was 30%.", "Turnout was 31%.", ok},
		{"small counts have no unit tolerance", "The film won 3 Oscars.", "The film won 4 Oscars.", bad("3", "4")},
		{"one tenth of a degree", "Warming reached 1.1°C.", "Warming reached 1.2°C.", ok},
		{"two tenths of a degree", "Warming reached 1.1°C.", "Warming reached 1.3°C.", bad("1.1°C", "1.3°C")},
		{"rounded millions", "The city has 3 million residents.", "The city has 3.1 million residents.", ok},
		{"rounded millions too far", "The city has 3 million residents.", "The city has 3.6 million residents.", bad("3 million residents", "3.6 million residents")},
		{"within 2%", "Sales reached 10,150 units.", "Sales reached 10,000 units.", ok},
		{"beyond 2%", "Sales reached 10,300 units.", "Sales reached 10,000 units.", bad("10,300", "10,000")},
		{"about widens to 10%", "The town has about 1,000 residents.", "The town has 1,080 residents.", ok},
		{"about is not anything", "The town has about 1,000 residents.", "The town has 1,200 residents.", bad("about 1,000 residents", "1,200 residents")},

		// Units.
		{"km vs metres", "The tunnel is 5 km long.", "The tunnel is 5,000 metres long.", ok},
		{"km vs metres mismatch", "The tunnel is 5 km long.", "The tunnel is 6,000 m long.", bad("5 km", "6,000 m")},
		{"kg vs tonnes", "The load weighs 2,000 kg.", "The load weighs 2 tonnes.", ok},
		{"months vs years", "The project took 18 months.", "The project took 1.5 years.", ok},
		{"bare degrees vs celsius", "Warming reached 1.1 degrees.", "Warming reached 1.1°C.", ok},
		{"people vs plain count", "About 8 billion people live on Earth.", "Earth's population passed 8 billion in 2022.", ok},

		// Bounds and ranges.
		{"bound vs bound overlapping is unsettled", "The channel has more than 25 million subscribers.", "The channel has over 20 million subscribers.", na},
		{"bound vs bound disjoint", "The channel has less than 25 million subscribers.", "The channel has more than 26 million subscribers.", bad("less than 25 million", "more than 26 million")},
		{"bound inside bound", "The channel has more than 25 million subscribers.", "The channel has more than 26 million subscribers.", ok},
		{"strict bound excludes its figure", "The film's rating was less than 74% on Rotten Tomatoes.", "The film has a rating of 74% on Rotten Tomatoes.", bad("less than 74%", "74%")},
		{"inclusive bound", "They recorded at least 9,000 satellites.", "They recorded 9,000 satellites.", ok},
		{"claim range contains figure", "Costs rose between 10 and 20 percent.", "Costs rose 15%.", ok},
		{"claim range misses figure", "Costs rose between 10 and 20 percent.", "Costs rose 25%.", bad("between 10 and 20 percent", "25%")},
		{"figure vs source range is unsettled", "Costs rose 15%.", "Costs rose 10-20%.", na},
		{"exact claim vs source bound it misses", "The channel has 20 million subscribers.", "The channel has more than 26 million subscribers.", bad("20 million", "more than 26 million")},

		// Years and dates.
		{"year vs date in it", "Satellites numbered 9,000 in 2024.", "On January 1, 2024 satellites numbered 9,000.", ok},
		{"same day two spellings", "The treaty was signed on 15 March 2023.", "The treaty was signed 2023-03-15.", ok},
		{"different day", "The treaty was signed on 15 March 2023.", "The treaty was signed on March 16, 2023.", bad("15 March 2023", "March 16, 2023")},
		{"month vs day in it", "The treaty was signed in March 2023.", "The treaty was signed on 15 March 2023.", ok},
		{"day vs month is unsettled", "The treaty was signed on 15 March 2023.", "The treaty was signed in March 2023.", na},
		{"decade vs year", "The tower was built in the 1990s.", "The tower was built in 1995.", ok},
		{"before year", "The album was released before 2016.", "The album was released in 2015.", ok},
		{"before year excludes it", "The album was released before 2016.", "The album was released in 2016.", bad("before 2016", "2016")},
		{"after date", "The film premiered after July 11, 1987.", "The film premiered on July 13, 1987.", ok},

		// Ranks.
		{"ordinal mismatch", "It is the 42nd most subscribed channel.", "It is the 43rd most subscribed channel.", bad("42nd", "43rd")},
		{"rank as count vs ordinal", "The video is ranked 15 on the site.", "It is the site's 15th most-watched video.", ok},
		{"rank with bound", "The game has less than 5 seasons.", "The game is on its 4th season.", ok},

		// Choosing among candidates.
		{"long passage: matching figure", "The main bridge is 1,200 metres long.", longPassage, ok},
		{"long passage: rounded figure", "Northport has 3 million residents.", longPassage, ok},
		{"long passage: wrong figure picks the related one", "Northport has 5 million residents.", longPassage, bad("5 million residents", "3.1 million residents")},
		{"long passage: unrelated figures do not conflict", "The mayor owns 7 cats.", longPassage, na},
		{"any matching figure agrees", "The film grossed $10.1 million, while Spectre made $12.8 million.",
			"The film grossed $10.1 million in its opening weekend, behind Spectre ($12.8 million).", ok},
		{"neighbouring clauses keep their figures", "It grossed over $36 million in North America and more than $40 million globally.",
			"It has grossed $38.2 million in North America and $2.6 million elsewhere, for a worldwide total of $40.8 million.", ok},
		{"one mismatch among agreements", "It grossed $38.2 million in North America and $50 million worldwide.",
			"It has grossed $38.2 million in North America and $2.6 million elsewhere, for a worldwide total of $40.8 million.",
			bad("$50 million", "$40.8 million")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Compare(tt.claim, tt.source)); diff != "" {
				t.Errorf("Compare(%q, %q) mismatch (-want +got):\n%s", tt.claim, tt.source, diff)
			}
		})
	}
}

func TestCompareExact(t *testing.T) {
	ok := evidence.NumCheck{Applicable: true, OK: true}
	unsettled := evidence.NumCheck{} // nothing settled either way
	bad := func(claim, source string) evidence.NumCheck {
		return evidence.NumCheck{Applicable: true, Mismatches: []evidence.Mismatch{{Claim: claim, Source: source}}}
	}
	tests := []struct {
		name, claim, source string
		tolerant, exact     evidence.NumCheck
	}{
		// One unit: Compare lets it pass, CompareExact does not.
		{"12 vs 11 workers", "12 workers died.", "11 workers died.", ok, bad("12", "11")},
		{"196 vs 195 countries", "196 countries signed the agreement.", "195 countries signed the agreement.", ok, bad("196", "195")},
		// Rounding, the hedge band and bounds hold in both.
		{"rounded figure", "Northport has 3 million residents.", "Northport has 3.1 million residents.", ok, ok},
		{"about 2.1 million", "The city has about 2.1 million inhabitants.", "The city had 2,104,000 inhabitants.", ok, ok},
		{"about 31% against 30%", "Coal causes 30% of global emissions.", "Coal causes about 31% of global emissions.", ok, ok},
		{"bound", "More than 9,000 satellites are active.", "There are 9,210 active satellites.", ok, ok},
		{"same figure", "12 workers died.", "12 workers died.", ok, ok},
		{"far off", "30 workers died.", "11 workers died.", bad("30", "11"), bad("30", "11")},
		// The counted noun picks the figure a bound speaks of: Compare
		// lets the "47 wins" beside it meet "less than 62 losses".
		{"bound against the figure counting its noun", "Damir Džumhur has a total record of less than 62 losses.",
			"It gives him a total record of 47 wins and 62 losses versus Top 100 players.", ok, bad("less than 62", "62")},
		{"bound with no context, against the figure near it", "The miniseries was reviewed by less than 76 critics.",
			"It has an average score of 9 out of 10, based on 76 reviews.", ok, bad("less than 76", "76")},
		{"born in the year of death", "Ralph Fults was born in 1993.",
			"Ralph Fults (January 23, 1911 – March 16, 1993) was a Depression-era outlaw.", ok, bad("1993", "January 23, 1911")},
		{"died in the year of death", "Ralph Fults died in 1993.",
			"Ralph Fults (January 23, 1911 – March 16, 1993) was a Depression-era outlaw.", ok, ok},
		{"ended on the first day", "The second season ended on February 15, 2005.",
			"The second season aired from February 15, 2005, to July 13, 2006.", ok, bad("February 15, 2005", "July 13, 2006")},
		{"died on the day of birth", "Kenneth Lonergan died on October 16, 1962.",
			"Kenneth Lonergan (born October 16, 1962) is an American playwright.", ok, bad("October 16, 1962", "October 16, 1962")},
		{"passed away in the year of birth", "Arthur Schopenhauer passed away in 1788.",
			"Arthur Schopenhauer (22 February 1788 to 21 September 1860) was a German philosopher.", ok, bad("1788", "21 September 1860")},
		{"born on the day of birth", "Kenneth Lonergan was born on October 16, 1962.",
			"Kenneth Lonergan (born October 16, 1962) is an American playwright.", ok, ok},
		{"a bound is no rank", "The film grossed under 85 million dollars.",
			"It has earned 88.96 million dollars worldwide, to become the 9th highest-grossing film of 2019.", bad("under 85 million dollars", "88.96 million dollars"), bad("under 85 million dollars", "88.96 million dollars")},
		{"a bound against a rank alone", "The film grossed under 85 million.",
			"It became the 9th highest-grossing film of 2019.", ok, evidence.NumCheck{}},
		// A bound is about the figure close to it that shares its context,
		// in the exact reading only.
		{"a bound against the close figure, not the better placed one", "Insidious: Chapter 3 earned less than $78 million across the world.",
			"Insidious: Chapter 3 has grossed $46,745,791 in North America and $32,200,000 in other territories, for a worldwide total of $78,945,791.", ok, bad("less than $78 million", "$78,945,791")},
		{"a bound against the close figure, not the as well placed one", "The song has under 6.75 million likes.",
			"It also has over 6.8 million likes and is the second video by the band to pass 5 million likes.", ok, bad("under 6.75 million", "over 6.8 million")},
		{"a bound met by a close figure that shares no context", "The film earned more than $54 million outside North America.",
			"The film has grossed $51.9 million in North America and $55.6 million in other territories.", ok, ok},
		// A bound's best-placed figure within 10% of it is the one it was
		// written about; a figure merely near it is not let through
		// beside it, unless it is the claim's bound written again.
		{"a bound against its placed close figure, not a near one", "The film was made on a budget of over 70 crores.",
			"It has earned 73.32 crore worldwide, against a production budget of 65 crore.", ok, bad("over 70 crores", "65 crore")},
		{"a bound written again beside a better placed one", "If a substance has a pH value greater than 7, it is a base.",
			"pH values of less than 7 indicate an acid, while those greater than 7 indicate a base.", ok, ok},
		// A name after "outside" is no context of the claim's figure, and
		// the claim's opening name counts half: every figure of a source
		// about it may stand beside it.
		{"outside a name, beside the subject's name", "Insidious: Chapter 3 earned more than $54 million outside North America.",
			"Insidious: Chapter 3 has grossed $51.9 million in North America and $55.6 million in other territories, for a worldwide total of $107.5 million.", ok, ok},
		{"outside a name, the figure of the other territories", "The film earned under $50 million outside North America.",
			"It has grossed $48 million in North America and $54.5 million in other territories.", ok, bad("under $50 million", "$54.5 million")},
		// No length of time is negative, and a percentage is no label's
		// number.
		{"a dash before a length of time", "The game is set in the Star Wars universe, after Episode III -12 years before Episode IV.",
			"The game is set in the Star Wars universe, 5 years after Episode III and 12 years before Episode IV.", bad("-12 years", "5 years"), ok},
		{"a percentage after a label word", "The PlayStation 4 version received a rating higher than 75.3% on GameRankings.",
			"GameRankings gave the PlayStation 4 version 75.43% based on 44 reviews.", unsettled, ok},
		{"a percentage after a label word, conflicting", "The PlayStation 4 version received a rating higher than 76% on GameRankings.",
			"GameRankings gave the PlayStation 4 version 75.43% based on 44 reviews.", unsettled, bad("higher than 76%", "75.43%")},
		// A yearless date takes the year of the date before it in its
		// sentence, when it falls after it (exact reading).
		{"a yearless date in the year of the date before it", "After 10 August 2015, Tevez was placed ninth in the award.",
			"On 15 July 2015, Tevez was named to the shortlist; on 12 August, it was announced he placed ninth in the award.", bad("After 10 August 2015", "15 July 2015"), ok},
		{"a yearless date in the year of the date before it, the bound the other way", "Before 10 August 2015, Tevez was placed ninth in the award.",
			"On 15 July 2015, Tevez was named to the shortlist; on 12 August, it was announced he placed ninth in the award.", ok, bad("Before 10 August 2015", "12 August")},
		{"a yearless date before the other in the year keeps no year", "Before 10 August 2015, Tevez was placed ninth in the award.",
			"On 15 September 2015, Tevez was named to the shortlist; on 5 August, it was announced he placed ninth in the award.", bad("Before 10 August 2015", "15 September 2015"), bad("Before 10 August 2015", "15 September 2015")},
		{"a yearless date of another sentence keeps no year", "After 10 August 2015, Tevez was placed ninth in the award.",
			"On 15 July 2015, Tevez was named to the shortlist. On 12 August, it was announced he placed ninth in the award.", bad("After 10 August 2015", "15 July 2015"), bad("After 10 August 2015", "15 July 2015")},
		{"a year within a span of two", "Sean Gunn was on Gilmore Girls in 2014.",
			"Sean Gunn is best known for his role on the television show Gilmore Girls, 2005 -- 2015.", bad("2014", "2005"), ok},
		{"a date within a season, against the day beside it", "The first case was confirmed on 28 January 2020.",
			"The first case during the 2019–20 pandemic was confirmed on 29 January 2020.", unsettled, bad("28 January 2020", "29 January 2020")},
		{"a year outside a span of two", "Sean Gunn was on Gilmore Girls in 2014.",
			"Sean Gunn is best known for his role on the television show Gilmore Girls (2000 -- 2007).", bad("2014", "2000"), bad("2014", "2000")},
		{"the 1800s are a century", "Arthur Schopenhauer was born in the 1800s.",
			"Arthur Schopenhauer, born on June 6, 1810, was a German philosopher.", bad("1800s", "June 6, 1810"), ok},
		{"the 1990s are a decade", "The band formed in the 1990s.", "The band formed in 2001.", bad("1990s", "2001"), bad("1990s", "2001")},
		{"completed in the year it began", "The Eiffel Tower was completed in 1887.",
			"Construction of the Eiffel Tower began in 1887 and finished in March 1889.", ok, bad("1887", "March 1889")},
		{"completed in the year it finished", "The Eiffel Tower was completed in 1889.",
			"Construction of the Eiffel Tower began in 1887 and finished in March 1889.", ok, ok},
		// A figure of a dimension against the source's figure of that
		// dimension, in the exact reading only.
		{"a depth against another dimension's figure", "The pool is 25 metres deep.",
			"The pool has a length of 25 metres and a depth of 2 metres.", ok, bad("25 metres", "2 metres")},
		{"a depth against the depth", "The pool is 2 metres deep.",
			"The pool has a length of 25 metres and a depth of 2 metres.", ok, ok},
		{"a length against the length", "The pool is 25 metres long.",
			"The pool has a length of 25 metres and a depth of 2 metres.", ok, ok},
		{"a height in other words", "The tower is 324 metres tall.", "The tower stands 324 metres high.", ok, ok},
		{"a width the source does not give", "The bridge is 2.7 kilometres wide.", "The bridge has a length of 2.7 kilometres.", ok, ok},
		// A date of one end against another date of the other end, in
		// order or not; an opening is another event than a start.
		{"born before the death", "The poet was born in 1950.", "The poet died in 1989 in Rome.", bad("1950", "1989"), unsettled},
		{"born after the death", "The poet was born in 1995.", "The poet died in 1989 in Rome.", bad("1995", "1989"), bad("1995", "1989")},
		{"started before the opening", "Building work on the bridge started in 1933.", "The bridge opened to traffic on 27 May 1937.",
			bad("1933", "27 May 1937"), unsettled},
		{"opened before the start", "The bridge opened in 1930.", "Construction of the bridge began in 1933.", bad("1930", "1933"), bad("1930", "1933")},
		{"opened in the first year of a span", "The theatre opened in 1911.", "The theatre was in use from 1911 to 1993.", ok, ok},
		{"the start of a year is no start", "Work on the bridge started in 1933.", "Work on the net was completed at the start of 2024.",
			bad("1933", "2024"), unsettled},
		// A figure ending in two zeros or more is read as rounded to its
		// last zero but one; a percentage or another figure is not.
		{"a round figure", "The film grossed $100 million.", "The film earned $98.7 million at the box office.", ok, ok},
		{"a round figure too far", "The town has 2,000 residents.", "The town has 2,104 residents.", bad("2,000 residents", "2,104 residents"), bad("2,000 residents", "2,104 residents")},
		{"a round figure of thousands", "The town has 2,000 residents.", "The town has 2,040 residents.", ok, ok},
		{"all is no round figure", "100% of the members voted.", "98.7% of the members voted.", ok, bad("100%", "98.7%")},
		{"a figure not round", "The film grossed $150 million.", "The film earned $148.7 million at the box office.", ok, bad("$150 million", "$148.7 million")},
		// A lone "one" is read only against a figure of its noun.
		{"one term against two", "The president served one term.", "He was elected in 2008 and re-elected in 2012, serving two terms.", unsettled, bad("one", "two")},
		{"two terms against one", "The president served two terms.", "He served one term.", unsettled, bad("two", "one")},
		{"one of them", "One of the workers died.", "Two workers died.", unsettled, unsettled},
		{"two lone ones", "I do not know if one exists.", "Nobody knows if one exists.", unsettled, unsettled},
		// A vague amount, in the exact reading: a range of the noun.
		{"hundreds against thousands", "Hundreds of people died in the earthquake.", "The earthquake killed at least 2,300 people.", unsettled, bad("Hundreds of", "at least 2,300 people")},
		{"thousands against more than 50,000", "Thousands of people attended the concert.", "More than 50,000 people attended the concert.", unsettled, ok},
		{"a handful against 50,000", "A handful of people attended the concert.", "More than 50,000 people attended the concert.", unsettled, bad("A handful of", "More than 50,000 people")},
		{"tens of thousands against 80,000", "Tens of thousands of people marched.", "Police said 80,000 people marched.", unsettled, ok},
		{"hundreds of thousands against 80,000", "Hundreds of thousands of people marched.", "Police said 80,000 people marched.", unsettled, bad("Hundreds of thousands of", "80,000 people")},
		{"bare thousands against a count", "The earthquake killed thousands.", "The earthquake killed at least 350 people.", unsettled, bad("thousands", "at least 350 people")},
		{"bare hundreds against a count", "Hundreds were injured in the blast.", "At least 350 people were injured in the blast.", unsettled, ok},
		{"millions against 9.6 million", "The museum attracts millions of visitors.", "The museum welcomed 9.6 million visitors in 2019.", unsettled, ok},
		// "A year" after a hedge is one year, in the exact reading; with
		// no hedge it is no length.
		{"less than a year against ten months", "The vaccine was developed in less than a year.", "Researchers developed the vaccine in about ten months.", unsettled, ok},
		{"less than a year against three years", "The vaccine was developed in less than a year.", "Researchers spent three years developing the vaccine.", unsettled, bad("less than a year", "three years")},
		{"more than a month against two weeks", "The trial lasted more than a month.", "The trial lasted two weeks.", unsettled, bad("more than a month", "two weeks")},
		{"once a year", "The festival is held once a year.", "The festival is held every two years.", unsettled, unsettled},
		// "One in N" is a share of 1/N, in the exact reading.
		{"one in five against 20%", "One in five adults smokes.", "About 20% of adults smoke.", unsettled, ok},
		{"one in three against 20%", "One in three adults smokes.", "About 20% of adults smoke.", unsettled, bad("One in three", "About 20%")},
		{"1 in 5 against 20%", "1 in 5 adults smokes.", "About 20% of adults smoke.", unsettled, ok},
		{"1 in 3 against 20%", "1 in 3 adults smokes.", "About 20% of adults smoke.", unsettled, bad("1 in 3", "About 20%")},
		// "Early", "mid" and "late" part a decade or a century.
		{"the late 1990s against 1991", "The company was founded in the late 1990s.", "The company was founded in 1991.", ok, bad("late 1990s", "1991")},
		{"the early 1990s against 1991", "The company was founded in the early 1990s.", "The company was founded in 1991.", ok, ok},
		{"the mid-20th century against 1945", "The war ended in the mid-20th century.", "The war ended in 1945.", unsettled, ok},
		{"the late 20th century against 1945", "The war ended in the late 20th century.", "The war ended in 1945.", unsettled, bad("late 20th century", "1945")},
		// A length of time written in parts is one length.
		{"about three hours against 2 hours and 50 minutes", "The trip takes about three hours.", "The journey lasts 2 hours and 50 minutes.", bad("about three hours", "2 hours"), ok},
		{"five hours against 2 hours and 50 minutes", "The trip takes five hours.", "The journey lasts 2 hours and 50 minutes.", bad("five hours", "2 hours"), bad("five hours", "2 hours and 50 minutes")},
		// After "number", "one" is the figure it is.
		{"number one against number three", "The song reached number one in the UK.", "The single peaked at number three on the UK Singles Chart.", unsettled, bad("one", "three")},
		{"number one against number one", "The song reached number one in the UK.", "The single peaked at number one on the UK Singles Chart.", unsettled, ok},
		// Taking effect is a start, not the passing of a law.
		{"took effect in the year it passed", "The new law took effect in 2023.", "The law, passed in 2023, takes effect on 1 January 2025.", ok, bad("2023", "1 January 2025")},
		{"took effect in the year it took effect", "The new law will take effect in 2025.", "The law, passed in 2023, takes effect on 1 January 2025.", ok, ok},
		// A length of time against a span of years, in the exact reading.
		{"a length within a span", "The war lasted six years.", "The war lasted from 1939 to 1945.", unsettled, ok},
		{"a length against a span", "The war lasted ten years.", "The war lasted from 1939 to 1945.", unsettled, bad("ten years", "1939 to 1945")},
		{"a length for a span", "He was king for 30 years.", "He reigned from 1830 to 1850.", unsettled, bad("30 years", "1830 to 1850")},
		{"a length within a span its words open and close", "The war lasted six years.", "The war began in 1939 and ended in 1945.", unsettled, ok},
		{"a length against a span its words open and close", "The war lasted ten years.", "The war began in 1939 and ended in 1945.", unsettled, bad("ten years", "1939 and ended in 1945")},
		// "Minus" before a temperature, and "below freezing", in the
		// exact reading.
		{"minus before a temperature", "The temperature fell below 0 degrees Celsius.", "Lows reached minus 5 degrees Celsius.", bad("below 0 degrees Celsius", "5 degrees Celsius"), ok},
		{"below freezing", "The temperature dropped below freezing.", "Lows reached minus 5 degrees Celsius.", unsettled, ok},
		{"above freezing", "The temperature stayed above freezing.", "Lows reached minus 5 degrees Celsius.", unsettled, bad("above freezing", "minus 5 degrees Celsius")},
		{"a temperature against below freezing", "It was minus 3 degrees Celsius.", "It stayed below freezing all day.", unsettled, unsettled},
		// Days written before the month of the date after them.
		{"a day within a source's range of days", "It aired on 9 July 2019.", "The festival ran from 5 to 14 July 2019.", bad("9 July 2019", "14 July 2019"), ok},
		{"a day outside a source's range of days", "The festival ran on 20 July 2019.", "The festival ran from 5 to 14 July 2019.", bad("20 July 2019", "14 July 2019"), bad("20 July 2019", "5 to 14 July 2019")},
		{"a day outside a source's span of two dates", "The festival ran on 20 July 2019.", "The festival ran from 5 July 2019 to 14 July 2019.", bad("20 July 2019", "5 July 2019"), bad("20 July 2019", "5 July 2019")},
		{"a length against a source's range of days", "The festival lasted 10 days.", "The festival ran from 5 to 14 July 2019.", unsettled, ok},
		{"a claim's day before another date", "Three episodes aired between 5th and 19th September 2014.",
			"The episodes began airing on 5 September 2014 and concluded on 19 September 2014.", ok, ok},
		{"a claim's range of days left a range", "It aired 5-19 September 2014.", "It aired on 5 September 2014.", ok, ok},
		// A span of days or months is measured in days.
		{"weeks within a span of days", "The strike lasted three weeks.", "The strike began on 1 March 2020 and ended on 22 March 2020.", unsettled, ok},
		{"months against a span of days", "The strike lasted three months.", "The strike began on 1 March 2020 and ended on 22 March 2020.", unsettled, bad("three months", "1 March 2020 and ended on 22 March 2020")},
		{"days, the last counted or not", "The festival lasted 10 days.", "The festival ran from 5 July 2019 to 14 July 2019.", unsettled, ok},
		{"days against a span of days", "The festival lasted 12 days.", "The festival ran from 5 July 2019 to 14 July 2019.", unsettled, bad("12 days", "5 July 2019 to 14 July 2019")},
		{"years within a span of months", "The war lasted six years.", "The war began in September 1939 and ended in September 1945.", unsettled, ok},
		{"an age is no length", "He was 40 years old.", "He reigned from 1830 to 1850.", unsettled, unsettled},
		{"an age at death the life allows", "She was 45 when she died.", "She was born in 1920 and died in 1965.", unsettled, ok},
		{"an age at death the life does not allow", "She was 60 when she died.", "She was born in 1920 and died in 1965.", unsettled, bad("60", "1920 and died in 1965")},
		{"a life in parentheses is no length", "He held office for over 20 years.", "Pope Innocent III (1161 – 16 July 1216) held office from 1198.", unsettled, unsettled},
		{"a year within the claim's century", "The singer died in the 21st century.", "The singer died in 2016.", unsettled, ok},
		{"a year outside the claim's century", "The singer died in the 20th century.", "The singer died in 2016.", unsettled, bad("20th century", "2016")},
		{"a century's first year as people count", "The bridge opened in the 20th century.", "The bridge opened in 1900.", unsettled, ok},
		{"a century against a century", "Little Dorrit was published in the 19th century.", "Little Dorrit was published in the 18th century.", bad("19th", "18th"), bad("19th century", "18th century")},
		{"a century against itself", "Little Dorrit was published in the 19th century.", "Little Dorrit was published in the 19th century.", ok, ok},
		{"a century BC stays an ordinal", "The temple was built in the 5th century BC.", "The temple was built in 450 BC.", unsettled, unsettled},
		{"a span of years against the source's span", "Mount Rushmore was made from 1927-1956.",
			"Construction ended in late October 1941. Borglum oversaw the project's execution from 1927-1941.", ok, bad("1927-1956", "1927-1941")},
		{"a bound against the figure a source bound rounds", "The film earned less than $106 million.",
			"It has grossed over $104 million.", unsettled, ok},
		{"a bound beyond the figure a source bound rounds", "The video has over 8 million likes.",
			"It also has over 7.7 million likes.", unsettled, bad("over 8 million", "over 7.7 million")},
		{"the same bound", "It earned more than $70 million.", "It has grossed over $70 million.", ok, ok},
		{"a bound at the unit after the figure a source bound rounds", "The film earned less than $105 million.",
			"It has grossed over $104 million.", unsettled, ok},
		{"a bound at the figure of a strict source bound", "The film earned at most $104 million.",
			"It has grossed over $104 million.", bad("at most $104 million", "over $104 million"), bad("at most $104 million", "over $104 million")},
		{"bound met by the figure counting its noun", "Damir Džumhur has a total record of less than 63 losses.",
			"It gives him a total record of 47 wins and 62 losses versus Top 100 players.", ok, ok},
		{"a day and month against a date's", "Duff McKagan was born on May 5.",
			"Duff McKagan (born February 5, 1964) is an American musician.", unsettled, bad("May 5", "February 5, 1964")},
		{"the day and month of a date", "Duff McKagan's birthday is 5 February.",
			"Duff McKagan (born February 5, 1964) is an American musician.", unsettled, ok},
		{"a day and month after another", "The package was announced after March 19.",
			"On 20 March, the government announced the package.", unsettled, ok},
		{"a day and month before another", "The package was announced before March 17.",
			"On 20 March, the government announced the package.", unsettled, bad("before March 17", "20 March")},
		{"a date against a day and month", "The film was released on May 5, 1999.",
			"The film was released on May 5.", unsettled, unsettled},
		{"a day and month against a month", "He was born on May 5.", "He was born in May 1964.", unsettled, unsettled},
		{"a list of citations is no figure", "Hypoglycaemia is associated with a higher risk of death [, 5].",
			"Two randomised controlled trials found a higher risk of death.", bad("5", "Two"), unsettled},
		{"a list of citations with its numbers", "Two doses were effective [19, 20].",
			"Two doses were effective.", evidence.NumCheck{Applicable: true, Mismatches: []evidence.Mismatch{{Claim: "19", Source: "Two"}, {Claim: "20", Source: "Two"}}}, ok},
		{"through names an end", "From March through May 2020, 122,000 more people died than expected.",
			"From March 1 to May 30, 2020, 122,000 more people died than would be expected.", ok, ok},
		{"from a place names no start", "The film was retired from theaters in the United States on April 5, 2015.",
			"The film ended its US theatrical run on April 5, 2015.", ok, ok},
		{"a score out of ten", "The first season has an average rating of more than 7.9/10.",
			"The first season has an average rating of 7.89/10.", unsettled, bad("more than 7.9/10", "7.89/10")},
		{"a plain score against one out of ten", "The film has an average score of 8.9.",
			"It holds a rating of 95% based on 199 reviews, with an average score of 8.6/10.", bad("8.9", "199"), bad("8.9", "8.6/10")},
		{"stars out of ten", "The show has an average rating of more than 9.6/10.",
			"Users gave the show an average rating of 9.5 stars out of 10.", unsettled, bad("more than 9.6/10", "9.5 stars out of 10")},
		{"a fraction of something is no score", "He won 1/5 of the vote.", "He won 1/5 of the vote.", unsettled, unsettled},
		{"a percentage and a score out of 100", "Averaged over 12 reviewers, the film scored 50 %.",
			"Metacritic rated it 50/100 based on twelve reviews.", bad("over 12", "twelve"), ok},
		{"a century written apart", "Arthur Schopenhauer died in the 1800 's .",
			"Arthur Schopenhauer ( 22 February 1788 -- 21 September 1860 ) was a German philosopher .", bad("1800", "22 February 1788"), ok},
		{"after the decade", "Little Dorrit was written after the 1850s .",
			"Little Dorrit was published in serial form between 1866 and 1869 .", bad("1850s", "between 1866 and 1869"), ok},
		{"after the decade, met by the decade", "Little Dorrit was written after the 1850s .",
			"Little Dorrit was published in serial form between 1855 and 1857 .", ok, bad("after the 1850s", "between 1855 and 1857")},
		{"a currency code apart from its symbol", "The deal valued the group at less than US $ 90 billion .",
			"The deal valued the group at around US $ 2.6 billion .", bad("$ 90 billion", "$ 2.6 billion"), ok},
		{"a figure in a name", "Apple designed the iPhone 4 .", "The iPhone 4 was designed by Apple .", ok, unsettled},
		{"a figure in a name after of", "Peru is a member of the Group of 15 .", "Chile and Kenya have joined the Group of 15 .", ok, unsettled},
		{"of a group, not a name", "The team was a group of 15 .", "The team was a group of 15 .", ok, ok},
		{"a bound past half a unit of a source bound", "The song has over 6.75 million likes.",
			"It has over 6.7 million likes.", unsettled, bad("over 6.75 million", "over 6.7 million")},
		{"a bound below half a unit of a source bound", "The film earned less than $112.5 million.",
			"It has grossed over $112 million.", unsettled, ok},
		{"crores, the plural of a scale", "The film grossed more than 97 crores.",
			"It has earned 96.36 crore worldwide, against a production budget of 65–80 crore.", ok, bad("more than 97 crores", "96.36 crore")},
		{"crores met", "The film grossed less than 97 crores.",
			"It has earned 96.36 crore worldwide, against a production budget of 65–80 crore.", unsettled, ok},
		{"globally is worldwide", "The film made over 75 crores globally.",
			"It has earned 73.32 crore worldwide, with earnings of 64.14 crore in India and 9.18 crore overseas.", ok, bad("over 75 crores", "73.32 crore")},
		{"a day in the month beside another day", "The game was detailed in April 15, 2019.",
			"It was detailed in April 2019. The game was released on November 15, 2019.", unsettled, unsettled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.tolerant, Compare(tt.claim, tt.source)); diff != "" {
				t.Errorf("Compare(%q, %q) mismatch (-want +got):\n%s", tt.claim, tt.source, diff)
			}
			if diff := cmp.Diff(tt.exact, CompareExact(tt.claim, tt.source)); diff != "" {
				t.Errorf("CompareExact(%q, %q) mismatch (-want +got):\n%s", tt.claim, tt.source, diff)
			}
		})
	}
}

func TestCheck(t *testing.T) {
	got := Check("Revenue reached $50B and profit $3 billion in 2023.", "Revenue reached $30 billion and profit $3.0bn in 2023.")
	type row struct {
		Claim, Source string
		Outcome       Outcome
		RelErr        float64
	}
	var rows []row
	for _, f := range got {
		rows = append(rows, row{f.Claim.Text, f.Source.Text, f.Outcome, math.Round(f.RelErr*1000) / 1000})
	}
	want := []row{
		{"$50B", "$30 billion", Conflicts, 0.667},
		{"$3 billion", "$3.0bn", Agrees, 0},
		{"2023", "2023", Agrees, 0},
	}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("Check mismatch (-want +got):\n%s", diff)
	}
	if got := Check("no figures here", "42 of them"); got != nil {
		t.Errorf("Check with no claim quantity = %v, want nil", got)
	}
	f := Check("The tunnel is 5 km long.", "The pool is 25 metres deep and the diving board stands 3 m high.")
	if len(f) != 1 || f[0].Outcome != Unsettled {
		t.Errorf("Check with two unrelated candidates = %+v, want one Unsettled finding", f)
	}
}

func TestRelativeError(t *testing.T) {
	tests := []struct {
		name       string
		a, b, want float64
	}{
		{"seed critical", 50, 30, 2.0 / 3},
		{"equal", 30, 30, 0},
		{"both zero", 0, 0, 0},
		{"zero reference", 1, 0, math.Inf(1)},
		{"negative", -5, -10, 0.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := RelativeError(tt.a, tt.b)
			if got != tt.want && math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("RelativeError(%v, %v) = %v, want %v", tt.a, tt.b, got, tt.want)
			}
		})
	}
}

func TestBase(t *testing.T) {
	tests := []struct {
		in       string
		wantV    float64
		wantUnit string
	}{
		{"5 km", 5000, "m"},
		{"3 Gt", 3e12, "kg"},
		{"18 months", 547.875, "day"},
		{"12%", 12, "%"},
		{"$5", 5, "USD"},
		{"40°C", 40, "°C"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			qs := Extract(tt.in)
			if len(qs) != 1 {
				t.Fatalf("Extract(%q) = %v, want one quantity", tt.in, qs)
			}
			v, u := qs[0].Base()
			if math.Abs(v-tt.wantV) > 1e-9*math.Abs(tt.wantV) || u != tt.wantUnit {
				t.Errorf("Base() = %v %q, want %v %q", v, u, tt.wantV, tt.wantUnit)
			}
		})
	}
}

func TestEnumNames(t *testing.T) {
	var names []string
	for _, k := range []Kind{Number, Percent, Money, Measure, Year, Date, Ordinal, Kind(99)} {
		names = append(names, k.String())
	}
	for _, b := range []Bound{Exact, AtLeast, AtMost, Approx, Between, Bound(99)} {
		names = append(names, b.String())
	}
	for _, o := range []Outcome{NotCompared, Agrees, Conflicts, Unsettled} {
		names = append(names, o.String())
	}
	want := "number percent money measure year date ordinal kind(99) exact at_least at_most approx between bound(99) " +
		"not_compared agrees conflicts unsettled"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("names = %q, want %q", got, want)
	}
}

func TestCheckBoundsWork(t *testing.T) {
	claim := strings.Repeat("12 cats, ", 40)
	source := strings.Repeat("12 cats and 1990 dogs and $5 ", 2000)
	got := Check(claim, source)
	if len(got) != maxClaimQuantities {
		t.Fatalf("Check gave %d findings, want the first %d claim quantities", len(got), maxClaimQuantities)
	}
	for _, f := range got {
		if f.Outcome != Agrees {
			t.Fatalf("finding %+v, want agreement", f)
		}
	}
	// A figure that the source gives only after its first 2,000
	// quantities is not seen.
	late := strings.Repeat("7 ", maxSourceQuantities) + "99 cats"
	if got := Check("99 cats", late); len(got) != 1 || got[0].Outcome == Agrees {
		t.Errorf("Check found a figure past the source limit: %+v", got)
	}
}

func TestAgeAtDeath(t *testing.T) {
	const life = "She was born in 1920 and died in 1965."
	for _, tt := range []struct {
		claim, source string
		want          Outcome
	}{
		{"She was 45 when she died.", life, Agrees},
		{"She died at the age of 44.", life, Agrees}, // her birthday later in the year than her death
		{"She was 46 when she died.", life, Conflicts},
		{"She died aged 60.", life, Conflicts},
		{"She was 45 years old when she died.", life, Agrees},
		{"Mozart died at 35.", "Wolfgang Amadeus Mozart (27 January 1756 – 5 December 1791) was a prolific composer.", Agrees},
		{"She died at 45.", "She died in 1965 in Paris.", NotCompared}, // no life
		{"She died in 1965.", life, NotCompared},                       // no age
		{"She was over 40 when she died.", life, NotCompared},          // a bound
		{"She was 45 when she married.", life, NotCompared},            // no death
		{"The team was at 45 points.", life, NotCompared},              // no death either
	} {
		// A claim gives an age when AgeAtDeath settles it, or when only
		// the source's life is missing.
		wantAge := tt.want != NotCompared || tt.source != life
		if got, aged := AgeAtDeath(tt.claim, tt.source); got != tt.want || aged != wantAge {
			t.Errorf("AgeAtDeath(%q, %q) = %v, %v, want %v, %v", tt.claim, tt.source, got, aged, tt.want, wantAge)
		}
	}
}

// A claim's time ago is dated from today, unless the source has a time
// ago of its own.
func TestCompareExactYearsAgo(t *testing.T) {
	defer func(f func() time.Time) { now = f }(now)
	now = func() time.Time { return time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC) }
	ok := evidence.NumCheck{Applicable: true, OK: true}
	bad := func(claim, source string) evidence.NumCheck {
		return evidence.NumCheck{Applicable: true, Mismatches: []evidence.Mismatch{{Claim: claim, Source: source}}}
	}
	const bridge = "The Golden Gate Bridge opened in 1937."
	tests := []struct {
		name, claim, source string
		want                evidence.NumCheck
	}{
		{"more than", "The bridge opened more than 80 years ago.", bridge, ok},
		// An age in the present tense dates a start as "ago" does; in
		// the past tense it is an age at the time.
		{"over 100 years old", "The building is over 100 years old.", "The building was constructed in 1890.", ok},
		{"less than 50 years old", "The building is less than 50 years old.", "The building was constructed in 1890.", bad("less than 50 years old", "1890")},
		{"50 years old", "The company is 50 years old.", "The company was founded in 1976.", ok},
		{"20 years old", "The company is 20 years old.", "The company was founded in 1976.", bad("20 years old", "1976")},
		{"an age in the past tense", "He was 30 years old when he died.", "He was born in 1900 and died in 1930.", ok},
		{"more than, too far back", "The bridge opened more than 90 years ago.", bridge, bad("more than 90 years ago", "1937")},
		{"less than", "The bridge opened less than 50 years ago.", bridge, bad("less than 50 years ago", "1937")},
		{"less than, met", "The bridge opened less than 90 years ago.", bridge, ok},
		{"just so many", "The bridge opened 89 years ago.", bridge, ok},
		{"just so many, off", "The bridge opened 20 years ago.", bridge, bad("20 years ago", "1937")},
		{"about", "The bridge opened about 90 years ago.", bridge, ok},
		{"decades", "The bridge opened nine decades ago.", bridge, ok},
		{"decades, off", "The bridge opened two decades ago.", bridge, bad("two decades ago", "1937")},
		{"the source's own time ago", "The bridge opened 20 years ago.", "The bridge opened 20 years ago.", ok},
		{"too far back to date", "Lucy lived 3.2 million years ago.", "Lucy lived 3.2 million years ago.", ok},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, CompareExact(tt.claim, tt.source)); diff != "" {
				t.Errorf("CompareExact(%q, %q) mismatch (-want +got):\n%s", tt.claim, tt.source, diff)
			}
		})
	}
}
