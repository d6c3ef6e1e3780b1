package quantity

import "strings"

// The word lists below are written by hand: no maintained Go library
// extracts quantities with units, hedges and ranges from running English
// text (dateparse and friends parse one whole string that is already known
// to be a date), so the vocabulary is part of this package.

// unitMeta describes a canonical unit: the base unit of its dimension and
// the factor that converts a value in the unit into the base unit. Units
// with an empty base are compared only with themselves.
type unitMeta struct {
	base   string
	factor float64
}

var unitInfo = map[string]unitMeta{
	// length
	"km": {"m", 1000}, "m": {"m", 1}, "cm": {"m", 0.01}, "mm": {"m", 0.001},
	"mi": {"m", 1609.344}, "ft": {"m", 0.3048}, "in": {"m", 0.0254},
	// area
	"km²": {"m²", 1e6}, "m²": {"m²", 1}, "ha": {"m²", 1e4}, "acre": {"m²", 4046.8564224},
	"mi²": {"m²", 2589988.110336},
	// volume
	"m³": {"L", 1000}, "L": {"L", 1}, "mL": {"L", 0.001}, "gal": {"L", 3.785411784},
	"bbl": {"L", 158.987294928},
	// mass
	"t": {"kg", 1000}, "kg": {"kg", 1}, "g": {"kg", 0.001}, "mg": {"kg", 1e-6},
	"lb": {"kg", 0.45359237}, "oz": {"kg", 0.028349523125},
	// time (a month is a twelfth of a Julian year)
	"second": {"day", 1.0 / 86400}, "minute": {"day", 1.0 / 1440}, "hour": {"day", 1.0 / 24},
	"day": {"day", 1}, "week": {"day", 7}, "month": {"day", 365.25 / 12}, "year": {"day", 365.25},
	"decade": {"day", 3652.5}, "century": {"day", 36525},
	// speed
	"km/h": {"km/h", 1}, "mph": {"km/h", 1.609344}, "m/s": {"km/h", 3.6},
	// energy and power
	"Wh": {"kWh", 0.001}, "kWh": {"kWh", 1}, "MWh": {"kWh", 1e3}, "GWh": {"kWh", 1e6}, "TWh": {"kWh", 1e9},
	"W": {"W", 1}, "kW": {"W", 1e3}, "MW": {"W", 1e6}, "GW": {"W", 1e9}, "TW": {"W", 1e12},
	// data
	"KB": {"B", 1e3}, "MB": {"B", 1e6}, "GB": {"B", 1e9}, "TB": {"B", 1e12}, "PB": {"B", 1e15}, "EB": {"B", 1e18}, "ZB": {"B", 1e21},
	// concentration
	"ppm": {"ppm", 1}, "ppb": {"ppm", 0.001},
}

// unitForm is one way of writing a unit: the canonical unit, a multiplier
// applied to the figure (a gigatonne is 1e9 "t") and the kind it gives.
type unitForm struct {
	unit string
	mult float64
	kind Kind
}

func measure(u string) unitForm           { return unitForm{u, 1, Measure} }
func scaled(u string, m float64) unitForm { return unitForm{u, m, Measure} }
func money(code string) unitForm          { return unitForm{code, 1, Money} }

var (
	percentForm = unitForm{"%", 1, Percent}
	pointsForm  = unitForm{"pp", 1, Percent}
	peopleForm  = unitForm{"people", 1, Number}
)

// symbolUnits are matched case-sensitively ("m" is metres, "M" is not).
// Keys are the tokens as written, joined with a space where the text has
// one ("° C").
var symbolUnits = map[string]unitForm{
	"%": percentForm, "pp": pointsForm,
	"km": measure("km"), "m": measure("m"), "cm": measure("cm"), "mm": measure("mm"),
	"mi": measure("mi"), "ft": measure("ft"),
	"km²": measure("km²"), "km2": measure("km²"), "m²": measure("m²"), "m2": measure("m²"),
	"ha": measure("ha"), "mi²": measure("mi²"), "m³": measure("m³"), "m3": measure("m³"),
	"L": measure("L"), "mL": measure("mL"), "ml": measure("mL"), "bbl": measure("bbl"),
	"t": measure("t"), "kg": measure("kg"), "g": measure("g"), "mg": measure("mg"),
	"lb": measure("lb"), "lbs": measure("lb"), "oz": measure("oz"),
	"Mt": scaled("t", 1e6), "Gt": scaled("t", 1e9), "MtCO2": scaled("t", 1e6), "GtCO2": scaled("t", 1e9),
	"°C": measure("°C"), "° C": measure("°C"), "℃": measure("°C"),
	"°F": measure("°F"), "° F": measure("°F"), "℉": measure("°F"), "°": measure("°"),
	"ppm": measure("ppm"), "ppb": measure("ppb"),
	"km/h": measure("km/h"), "kph": measure("km/h"), "mph": measure("mph"), "m/s": measure("m/s"),
	"Wh": measure("Wh"), "kWh": measure("kWh"), "MWh": measure("MWh"), "GWh": measure("GWh"), "TWh": measure("TWh"),
	"W": measure("W"), "kW": measure("kW"), "MW": measure("MW"), "GW": measure("GW"), "TW": measure("TW"),
	"KB": measure("KB"), "kB": measure("KB"), "MB": measure("MB"), "GB": measure("GB"), "TB": measure("TB"), "PB": measure("PB"), "EB": measure("EB"), "ZB": measure("ZB"),
	"h": measure("hour"), "hr": measure("hour"), "hrs": measure("hour"), "min": measure("minute"),
	"USD": money("USD"), "EUR": money("EUR"), "GBP": money("GBP"), "JPY": money("JPY"), "CNY": money("CNY"),
	"INR": money("INR"), "AUD": money("AUD"), "CAD": money("CAD"), "CHF": money("CHF"),
}

// wordUnits are matched on the lower-cased tokens.
var wordUnits = map[string]unitForm{
	"percent": percentForm, "per cent": percentForm, "pct": percentForm,
	"percentage points": pointsForm, "percentage point": pointsForm,
	"kilometres": measure("km"), "kilometers": measure("km"), "kilometre": measure("km"), "kilometer": measure("km"),
	"metres": measure("m"), "meters": measure("m"), "metre": measure("m"), "meter": measure("m"),
	"centimetres": measure("cm"), "centimeters": measure("cm"), "millimetres": measure("mm"), "millimeters": measure("mm"),
	"miles": measure("mi"), "mile": measure("mi"), "feet": measure("ft"), "foot": measure("ft"),
	"inches": measure("in"), "inch": measure("in"),
	"square kilometres": measure("km²"), "square kilometers": measure("km²"), "square kilometre": measure("km²"),
	"square kilometer": measure("km²"), "sq km": measure("km²"), "square metres": measure("m²"),
	"square meters": measure("m²"), "square miles": measure("mi²"), "square mile": measure("mi²"), "sq mi": measure("mi²"),
	"hectares": measure("ha"), "hectare": measure("ha"), "acres": measure("acre"), "acre": measure("acre"),
	"cubic metres": measure("m³"), "cubic meters": measure("m³"),
	"litres": measure("L"), "liters": measure("L"), "litre": measure("L"), "liter": measure("L"),
	"millilitres": measure("mL"), "milliliters": measure("mL"), "gallons": measure("gal"), "gallon": measure("gal"),
	"barrels": measure("bbl"), "barrel": measure("bbl"),
	"tonnes": measure("t"), "tonne": measure("t"), "tons": measure("t"), "ton": measure("t"),
	"metric tons": measure("t"), "metric tonnes": measure("t"),
	"megatonnes": scaled("t", 1e6), "megatons": scaled("t", 1e6), "gigatonnes": scaled("t", 1e9), "gigatons": scaled("t", 1e9),
	"kilograms": measure("kg"), "kilogram": measure("kg"), "kilos": measure("kg"),
	"grams": measure("g"), "gram": measure("g"), "milligrams": measure("mg"), "milligram": measure("mg"),
	"pounds": measure("lb"), "pound": measure("lb"), "ounces": measure("oz"), "ounce": measure("oz"),
	"degrees celsius": measure("°C"), "degree celsius": measure("°C"), "degrees centigrade": measure("°C"),
	"celsius": measure("°C"), "degrees fahrenheit": measure("°F"), "degree fahrenheit": measure("°F"),
	"fahrenheit": measure("°F"), "degrees": measure("°"), "degree": measure("°"),
	"parts per million": measure("ppm"), "parts per billion": measure("ppb"),
	"kilometres per hour": measure("km/h"), "kilometers per hour": measure("km/h"), "miles per hour": measure("mph"),
	"kilowatt hours": measure("kWh"), "kilowatt-hours": measure("kWh"), "megawatt hours": measure("MWh"),
	"megawatt-hours": measure("MWh"), "gigawatt hours": measure("GWh"), "gigawatt-hours": measure("GWh"),
	"terawatt hours": measure("TWh"), "terawatt-hours": measure("TWh"),
	"watts": measure("W"), "kilowatts": measure("kW"), "megawatts": measure("MW"), "gigawatts": measure("GW"),
	"kilobytes": measure("KB"), "megabytes": measure("MB"), "gigabytes": measure("GB"), "terabytes": measure("TB"),
	"petabytes": measure("PB"), "exabytes": measure("EB"), "zettabytes": measure("ZB"),
	"seconds": measure("second"), "second": measure("second"), "minutes": measure("minute"), "minute": measure("minute"),
	"hours": measure("hour"), "hour": measure("hour"), "days": measure("day"), "day": measure("day"),
	"weeks": measure("week"), "week": measure("week"), "months": measure("month"), "month": measure("month"),
	"years": measure("year"), "year": measure("year"), "decades": measure("decade"), "decade": measure("decade"),
	"centuries": measure("century"), "century": measure("century"),
	"people": peopleForm, "persons": peopleForm, "person": peopleForm, "residents": peopleForm,
	"inhabitants": peopleForm, "individuals": peopleForm,
	"dollars": money("USD"), "dollar": money("USD"), "us dollars": money("USD"),
	"euros": money("EUR"), "euro": money("EUR"), "pounds sterling": money("GBP"), "sterling": money("GBP"),
	"yen": money("JPY"), "yuan": money("CNY"), "renminbi": money("CNY"), "rupees": money("INR"),
}

// maxUnitTokens is the most tokens a unit form spans ("kilometres per
// hour", "° C" is 2).
const maxUnitTokens = 3

// currencySymbols precede an amount.
var currencySymbols = map[string]string{
	"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR",
}

// currencyPrefixWords precede a currency symbol ("US$", "A$").
var currencyPrefixWords = map[string]string{"US": "USD", "A": "AUD", "C": "CAD", "NZ": "NZD", "HK": "HKD"}

// scaleWords follow a figure, spaced or attached ("1.5 million", "30bn").
var scaleWords = map[string]float64{
	"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12,
	"mn": 1e6, "bn": 1e9, "tn": 1e12, "trn": 1e12, "lakh": 1e5, "crore": 1e7,
}

// pluralScales are the Indian scale words written as plurals ("75
// crores"), read only in the exact reading (scanner.scaleWord).
var pluralScales = map[string]float64{"lakhs": 1e5, "crores": 1e7}

// attachedScales are scale letters written right after the digits:
// "9k", "5M", "30B". "m" and "b" mean million and billion only after a
// currency ("$5m"); elsewhere "5m" is five metres.
var attachedScales = map[string]float64{"k": 1e3, "K": 1e3, "M": 1e6, "B": 1e9, "bn": 1e9, "mn": 1e6, "tn": 1e12}

var currencyScales = map[string]float64{"m": 1e6, "b": 1e9}

var ones = map[string]float64{
	"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
	"eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
	"fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
}

var tens = map[string]float64{
	"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
}

// fractionWords are spelled fractions; followed by "of" they give a
// percentage of a whole ("a third of" -> 33.3%).
var fractionWords = map[string]float64{
	"half": 1.0 / 2, "halves": 1.0 / 2, "third": 1.0 / 3, "thirds": 1.0 / 3,
	"quarter": 1.0 / 4, "quarters": 1.0 / 4, "fifth": 1.0 / 5, "fifths": 1.0 / 5,
}

// hedges are the words before a figure that make it a bound or an
// approximation, lower-cased and joined by single spaces.
var hedges = map[string]Bound{
	"more than": AtLeast, "greater than": AtLeast, "over": AtLeast, "above": AtLeast, "at least": AtLeast,
	"exceeded": AtLeast, "exceeds": AtLeast, "exceed": AtLeast, "exceeding": AtLeast,
	"surpassed": AtLeast, "surpassing": AtLeast, "topped": AtLeast, "in excess of": AtLeast,
	"upwards of": AtLeast, "north of": AtLeast, "no fewer than": AtLeast, "no less than": AtLeast,
	"a minimum of": AtLeast, "just over": AtLeast, "well over": AtLeast, "well above": AtLeast,
	"less than": AtMost, "fewer than": AtMost, "under": AtMost, "below": AtMost, "at most": AtMost,
	"no more than": AtMost, "up to": AtMost, "a maximum of": AtMost, "not exceeding": AtMost,
	"as many as": AtMost, "as much as": AtMost, "well under": AtMost, "well below": AtMost,
	"larger than": AtLeast, "bigger than": AtLeast, "higher than": AtLeast, "longer than": AtLeast,
	"older than": AtLeast, "smaller than": AtMost, "lower than": AtMost, "shorter than": AtMost,
	"younger than": AtMost,
	"about":        Approx, "around": Approx, "approximately": Approx, "approx": Approx, "roughly": Approx,
	"nearly": Approx, "almost": Approx, "circa": Approx, "some": Approx, "close to": Approx,
	"an estimated": Approx, "estimated": Approx, "just under": Approx, "ca": Approx, "c": Approx,
}

// strictHedges exclude their figure: "more than 9,000" is not met by
// 9,000, "at least 9,000" is.
var strictHedges = map[string]bool{
	"more than": true, "greater than": true, "over": true, "above": true, "exceeded": true, "exceeds": true,
	"exceed": true, "exceeding": true, "surpassed": true, "surpassing": true, "topped": true, "in excess of": true,
	"upwards of": true, "north of": true, "just over": true, "well over": true, "well above": true,
	"larger than": true, "bigger than": true, "higher than": true, "longer than": true, "older than": true,
	"less than": true, "fewer than": true, "under": true, "below": true, "well under": true, "well below": true,
	"smaller than": true, "lower than": true, "shorter than": true, "younger than": true,
}

// hedgeWords are the single words that hedges are made of.
var hedgeWords = func() map[string]bool {
	m := map[string]bool{}
	for h := range hedges {
		for _, w := range strings.Fields(h) {
			m[w] = true
		}
	}
	return m
}()

// maxHedgeWords is the longest hedge.
const maxHedgeWords = 3

// suffixHedges follow a figure: "9,000 or more".
var suffixHedges = map[string]Bound{
	"or more": AtLeast, "or over": AtLeast, "plus": AtLeast, "or less": AtMost, "or fewer": AtMost, "or so": Approx,
}

var symbolHedges = map[string]Bound{
	"~": Approx, "≈": Approx, ">": AtLeast, "≥": AtLeast, ">=": AtLeast, "<": AtMost, "≤": AtMost, "<=": AtMost,
}

// labelWords name the number after them ("Figure 3", "page 12",
// "version 2.0"): the number is an identifier, not a quantity.
var labelWords = map[string]bool{
	"figure": true, "fig": true, "table": true, "chapter": true, "section": true, "page": true, "pages": true,
	"p": true, "pp": true, "vol": true, "volume": true, "issue": true, "article": true, "art": true,
	"appendix": true, "item": true, "step": true, "version": true, "ver": true, "v": true, "rev": true,
	"release": true, "route": true, "highway": true, "interstate": true, "room": true, "flight": true,
	"episode": true, "season": true, "part": true, "phase": true, "stage": true, "verse": true,
	"rule": true, "clause": true, "paragraph": true, "no": true, "nos": true, "eq": true, "equation": true,
	"lines": true, "line": true, "ref": true, "reference": true, "id": true, "code": true,
}

// yearAffixes may be joined to a year by a hyphen ("mid-2020").
var yearAffixes = map[string]bool{"mid": true, "pre": true, "post": true, "early": true, "late": true}

var months = map[string]int{
	"january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7,
	"august": 8, "september": 9, "october": 10, "november": 11, "december": 12,
	"jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9,
	"oct": 10, "nov": 11, "dec": 12,
}

var eras = map[string]float64{"bc": -1, "bce": -1, "ad": 1, "ce": 1}

// startWords are the lower-cased words a quantity can start with: months,
// currency prefixes and codes, spelled numbers, "a", "an" and "half".
var startWords = func() map[string]bool {
	m := map[string]bool{"a": true, "an": true, "half": true, "tens": true, "dozens": true, "hundreds": true,
		"thousands": true, "millions": true, "billions": true}
	for w := range months {
		m[w] = true
	}
	for w := range ones {
		m[w] = true
	}
	for w := range tens {
		m[w] = true
	}
	for w := range currencyPrefixWords {
		m[strings.ToLower(w)] = true
	}
	for w, f := range symbolUnits {
		if f.kind == Money {
			m[strings.ToLower(w)] = true
		}
	}
	return m
}()

// lengths are the units of length of the lexicons.
var lengths = map[string]bool{"km": true, "m": true, "cm": true, "mm": true, "mi": true, "ft": true, "in": true}

// LengthUnit reports whether word, one token as written, names a unit of
// length ("metres", "ft", "m"; symbols match case-sensitively, as
// symbolUnits does).
func LengthUnit(word string) bool {
	if f, ok := symbolUnits[word]; ok {
		return lengths[f.unit]
	}
	f, ok := wordUnits[strings.ToLower(word)]
	return ok && lengths[f.unit]
}

// dimensionAdjectives are the adjectives of a dimension that follow a
// figure of length ("324 metres tall"), and the dimension each measures.
var dimensionAdjectives = map[string]string{
	"tall": "height", "high": "height", "long": "length", "wide": "width", "broad": "width",
	"deep": "depth", "thick": "thickness",
}

// dimensionNouns are the dimensions a figure of length measures.
var dimensionNouns = map[string]bool{"height": true, "length": true, "width": true, "depth": true, "thickness": true}

// Dimension returns the dimension a lower-case word names: a dimension's
// noun itself ("depth"), or the noun of an adjective of a dimension
// ("deep": depth, adjective true; it names one only after a unit of
// length, LengthUnit). "" for a word that names none.
func Dimension(word string) (noun string, adjective bool) {
	if dimensionNouns[word] {
		return word, false
	}
	n, ok := dimensionAdjectives[word]
	return n, ok
}

// WordUnit returns what a figure written before word (lower case) is
// multiplied by to be counted in its dimension's base unit or as a plain
// number, and that base: 1e6 and "" for "million", 0.001 and "kg" for
// "grams", 0.3048 and "m" for "feet"; false for a word that is neither a
// scale nor a unit of one word with a base. The NLI judge reads the
// figures of its tokens so ("2,000 grams" and "2 kg" as one figure).
func WordUnit(word string) (factor float64, base string, ok bool) {
	if f, ok := scaleWords[word]; ok {
		return f, "", true
	}
	if f, ok := pluralScales[word]; ok {
		return f, "", true
	}
	form, ok := wordUnits[word]
	if !ok {
		form, ok = symbolUnits[word]
	}
	if !ok {
		return 0, "", false
	}
	u, ok := unitInfo[form.unit]
	if !ok || u.base == "" {
		return 0, "", false
	}
	return form.mult * u.factor, u.base, true
}
