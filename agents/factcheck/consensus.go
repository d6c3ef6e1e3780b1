package factcheck

import "math"

// calculateConsensus is seed 001's calculateConsensus. allVerifications holds
// one slice per checker; each names its claims by ClaimID. For each claim:
//
//  1. count the verdicts;
//  2. the majority verdict wins;
//  3. a VERIFIED/DISPUTED tie gives DISPUTED (conservative);
//  4. a tie with UNVERIFIABLE gives the other verdict;
//  5. a three-way tie gives DISPUTED;
//  6. the agreement rate is count(consensus verdict) / checkers * 100;
//  7. the consensus confidence is the most common confidence among the
//     checkers that gave the consensus verdict (a tie between confidences
//     goes to the lower one), and LOW when a tie decided the verdict, as the
//     seed's edge-case table asks for evenly split checkers;
//  8. when the consensus is DISPUTED, the correction is the most common
//     correction among the DISPUTED verdicts (the first checker's on a tie).
//
// A claim no checker addressed (no checkers at all) is UNVERIFIABLE with LOW
// confidence and a 0 agreement rate; the seed's rules would divide by zero.
func calculateConsensus(claims []ExtractedClaim, allVerifications [][]ClaimVerification) []ClaimConsensus {
	out := make([]ClaimConsensus, 0, len(claims))
	for _, c := range claims {
		verdicts := []ClaimVerification{}
		for _, vs := range allVerifications {
			for _, v := range vs {
				if v.ClaimID == c.ID {
					verdicts = append(verdicts, v)
					break
				}
			}
		}
		cc := ClaimConsensus{
			ClaimID: c.ID, Claim: c.Claim, Original: c.Original, Context: c.Context, Type: c.Type,
			Verdicts: verdicts, ConsensusVerdict: Unverifiable, ConsensusConfidence: Low,
		}
		if len(verdicts) == 0 {
			out = append(out, cc)
			continue
		}
		verdict, tied := majority(verdicts)
		cc.ConsensusVerdict = verdict
		n := 0
		for _, v := range verdicts {
			if v.Verdict == verdict {
				n++
			}
		}
		cc.AgreementRate = math.Round(float64(n)/float64(len(allVerifications))*1000) / 10
		if !tied {
			cc.ConsensusConfidence = commonConfidence(verdicts, verdict)
		}
		if verdict == Disputed {
			cc.Correction = commonCorrection(verdicts)
		}
		out = append(out, cc)
	}
	return out
}

// majority applies rules 2-5 and reports whether a tie decided.
func majority(verdicts []ClaimVerification) (verdict string, tied bool) {
	n := summarizeVerifications(verdicts)
	nv, nd, nu := n.Verified, n.Disputed, n.Unverifiable
	top := max(nv, nd, nu)
	switch {
	case nv == top && nd == top: // V/D tie or three-way tie
		return Disputed, true
	case nv == top && nu == top:
		return Verified, true
	case nd == top && nu == top:
		return Disputed, true
	case nv == top:
		return Verified, false
	case nd == top:
		return Disputed, false
	default:
		return Unverifiable, false
	}
}

func commonConfidence(verdicts []ClaimVerification, verdict string) string {
	counts := map[string]int{}
	for _, v := range verdicts {
		if v.Verdict == verdict {
			counts[v.Confidence]++
		}
	}
	best, bestN := Low, 0
	for _, c := range []string{Low, Medium, High} {
		// Ascending order with a strict > keeps the lower level on a tie.
		if counts[c] > bestN {
			best, bestN = c, counts[c]
		}
	}
	return best
}

func commonCorrection(verdicts []ClaimVerification) *string {
	counts := map[string]int{}
	var order []string
	for _, v := range verdicts {
		if v.Verdict != Disputed || v.Correction == nil || *v.Correction == "" {
			continue
		}
		if counts[*v.Correction] == 0 {
			order = append(order, *v.Correction)
		}
		counts[*v.Correction]++
	}
	var best *string
	bestN := 0
	for _, c := range order {
		if counts[c] > bestN {
			best, bestN = &c, counts[c]
		}
	}
	return best
}

// summarize counts the consensus verdicts.
func summarize(cs []ClaimConsensus) Summary {
	return tally(cs, func(c ClaimConsensus) string { return c.ConsensusVerdict })
}

// summarizeVerifications counts one checker's verdicts.
func summarizeVerifications(vs []ClaimVerification) Summary {
	return tally(vs, func(v ClaimVerification) string { return v.Verdict })
}

func tally[T any](xs []T, verdict func(T) string) Summary {
	var s Summary
	for _, x := range xs {
		s.add(verdict(x))
	}
	return s
}

func (s *Summary) add(verdict string) {
	switch verdict {
	case Verified:
		s.Verified++
	case Disputed:
		s.Disputed++
	default:
		s.Unverifiable++
	}
}

// averageAgreement is the mean agreement rate over claims, one decimal; 0
// with no claims.
func averageAgreement(cs []ClaimConsensus) float64 {
	if len(cs) == 0 {
		return 0
	}
	var sum float64
	for _, c := range cs {
		sum += c.AgreementRate
	}
	return math.Round(sum/float64(len(cs))*10) / 10
}
