package nli

import "testing"

func TestDropAsides(t *testing.T) {
	for _, tt := range []struct{ claim, passage, want string }{
		{"Stephen Colbert is an American.",
			"Stephen Tyrone Colbert -LRB- -LSB- koʊlˈbɛər -RSB- , né : -LSB- ˈkoʊlbərt -RSB- born May 13 , 1964 -RRB- is an American comedian .",
			"Stephen Tyrone Colbert is an American comedian ."},
		// An aside with a word or figure of the claim stays.
		{"Stephen Colbert was born in 1964.",
			"Stephen Colbert (born May 13, 1964) is an American comedian.",
			"Stephen Colbert (born May 13, 1964) is an American comedian."},
		{"The recommended intake is 600 units.",
			"The recommended intake is 600 international units (15 micrograms) a day (see below).",
			"The recommended intake is 600 international units a day."},
		// Stop words alone do not keep an aside.
		{"The bridge is in the city.", "The bridge (in the end) is in the city.", "The bridge is in the city."},
		// Unbalanced brackets are left as they are.
		{"The bridge opened.", "The bridge opened) in (1937.", "The bridge opened) in (1937."},
		{"The bridge opened.", "No asides here.", "No asides here."},
	} {
		if got := dropAsides(analyse(tt.claim), tt.passage); got != tt.want {
			t.Errorf("dropAsides(%q, %q) = %q, want %q", tt.claim, tt.passage, got, tt.want)
		}
	}
}

func TestAlignerDropsAsides(t *testing.T) {
	a := loadAligner(t)
	opts := a.EncoderOptions
	opts.DropAsides = true
	d := saveAndRead(t, NewAligner(a.nets, opts, a.Rules, nil))
	if !d.DropAsides {
		t.Fatal("drop_asides did not survive Save and ReadAligner")
	}
	const claim = "Stephen Colbert is an American."
	with := "Stephen Tyrone Colbert (/koʊlˈbɛər/, né /ˈkoʊlbərt/; born May 13, 1964) is an American comedian."
	without := "Stephen Tyrone Colbert is an American comedian."
	if got, want := d.Predict(claim, with), a.Predict(claim, without); got != want {
		t.Errorf("with drop_asides the aside was read: %+v, want %+v", got, want)
	}
	if got, dropped := a.Predict(claim, with), a.Predict(claim, without); got == dropped {
		t.Errorf("without drop_asides the aside made no difference (%+v): the test shows nothing", got)
	}
	// Encoding for training drops them too.
	enc := NewEncoder(opts)
	if got, want := len(enc.Encode(claim, with).B), len(NewEncoder(a.EncoderOptions).Encode(claim, without).B); got != want {
		t.Errorf("the training encoder read %d passage tokens, want %d", got, want)
	}
}
