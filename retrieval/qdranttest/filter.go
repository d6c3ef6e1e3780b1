package qdranttest

import (
	"slices"
	"time"

	"github.com/qdrant/go-client/qdrant"
)

// matches reports whether p passes f; a nil filter passes everything. A
// condition on a field the point lacks fails, as in Qdrant.
func matches(f *qdrant.Filter, p *point) (bool, error) {
	if f == nil {
		return true, nil
	}
	if f.GetMinShould() != nil {
		return false, unsupported("min_should")
	}
	for _, c := range f.GetMust() {
		ok, err := condition(c, p)
		if err != nil || !ok {
			return false, err
		}
	}
	for _, c := range f.GetMustNot() {
		ok, err := condition(c, p)
		if err != nil || ok {
			return false, err
		}
	}
	if len(f.GetShould()) == 0 {
		return true, nil
	}
	for _, c := range f.GetShould() {
		ok, err := condition(c, p)
		if err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}

func condition(c *qdrant.Condition, p *point) (bool, error) {
	switch v := c.GetConditionOneOf().(type) {
	case *qdrant.Condition_Field:
		return fieldCondition(v.Field, p)
	case *qdrant.Condition_Filter:
		return matches(v.Filter, p)
	case *qdrant.Condition_HasId:
		for _, id := range v.HasId.GetHasId() {
			key, err := pointKey(id)
			if err != nil {
				return false, err
			}
			if key == p.key {
				return true, nil
			}
		}
		return false, nil
	case *qdrant.Condition_IsEmpty:
		return len(values(p.payload[v.IsEmpty.GetKey()])) == 0, nil
	case *qdrant.Condition_IsNull:
		_, isNull := p.payload[v.IsNull.GetKey()].GetKind().(*qdrant.Value_NullValue)
		return isNull, nil
	}
	return false, unsupported("this condition kind")
}

// values returns the values a payload field holds: the elements of a list,
// or the value itself; none for a missing field or null.
func values(v *qdrant.Value) []*qdrant.Value {
	switch k := v.GetKind().(type) {
	case nil, *qdrant.Value_NullValue:
		return nil
	case *qdrant.Value_ListValue:
		return k.ListValue.GetValues()
	}
	return []*qdrant.Value{v}
}

func fieldCondition(fc *qdrant.FieldCondition, p *point) (bool, error) {
	vals := values(p.payload[fc.GetKey()])
	switch {
	case fc.GetMatch() != nil:
		return anyValue(vals, func(v *qdrant.Value) (bool, error) { return matchValue(fc.GetMatch(), v) })
	case fc.GetRange() != nil:
		r := fc.GetRange()
		return anyValue(vals, func(v *qdrant.Value) (bool, error) {
			var x float64
			switch k := v.GetKind().(type) {
			case *qdrant.Value_IntegerValue:
				x = float64(k.IntegerValue)
			case *qdrant.Value_DoubleValue:
				x = k.DoubleValue
			default:
				return false, nil
			}
			return (r.Lt == nil || x < r.GetLt()) && (r.Gt == nil || x > r.GetGt()) &&
				(r.Lte == nil || x <= r.GetLte()) && (r.Gte == nil || x >= r.GetGte()), nil
		})
	case fc.GetDatetimeRange() != nil:
		r := fc.GetDatetimeRange()
		// Qdrant compares datetimes in microseconds.
		micros := func(t interface{ AsTime() time.Time }) int64 { return t.AsTime().UnixMicro() }
		return anyValue(vals, func(v *qdrant.Value) (bool, error) {
			t, ok := parseDatetime(v.GetStringValue())
			if !ok {
				return false, nil
			}
			x := t.UnixMicro()
			return (r.Lt == nil || x < micros(r.GetLt())) && (r.Gt == nil || x > micros(r.GetGt())) &&
				(r.Lte == nil || x <= micros(r.GetLte())) && (r.Gte == nil || x >= micros(r.GetGte())), nil
		})
	case fc.IsEmpty != nil:
		return (len(vals) == 0) == fc.GetIsEmpty(), nil
	case fc.IsNull != nil:
		_, isNull := p.payload[fc.GetKey()].GetKind().(*qdrant.Value_NullValue)
		return isNull == fc.GetIsNull(), nil
	}
	return false, unsupported("this field condition (geo, values count)")
}

func anyValue(vals []*qdrant.Value, f func(*qdrant.Value) (bool, error)) (bool, error) {
	for _, v := range vals {
		ok, err := f(v)
		if err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}

func matchValue(m *qdrant.Match, v *qdrant.Value) (bool, error) {
	s, isString := v.GetKind().(*qdrant.Value_StringValue)
	n, isInt := v.GetKind().(*qdrant.Value_IntegerValue)
	b, isBool := v.GetKind().(*qdrant.Value_BoolValue)
	switch mv := m.GetMatchValue().(type) {
	case *qdrant.Match_Keyword:
		return isString && s.StringValue == mv.Keyword, nil
	case *qdrant.Match_Keywords:
		return isString && slices.Contains(mv.Keywords.GetStrings(), s.StringValue), nil
	case *qdrant.Match_ExceptKeywords:
		return isString && !slices.Contains(mv.ExceptKeywords.GetStrings(), s.StringValue), nil
	case *qdrant.Match_Integer:
		return isInt && n.IntegerValue == mv.Integer, nil
	case *qdrant.Match_Integers:
		return isInt && slices.Contains(mv.Integers.GetIntegers(), n.IntegerValue), nil
	case *qdrant.Match_ExceptIntegers:
		return isInt && !slices.Contains(mv.ExceptIntegers.GetIntegers(), n.IntegerValue), nil
	case *qdrant.Match_Boolean:
		return isBool && b.BoolValue == mv.Boolean, nil
	}
	return false, unsupported("full-text matches")
}

// parseDatetime reads the datetime forms Qdrant's datetime index accepts.
func parseDatetime(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}
