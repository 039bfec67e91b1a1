package ahp

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
)

// What a host sends is read leniently on the client side: elicit takes the
// fields it needs and tolerates the rest, so another host's extra fields,
// or a field of an unexpected type (a status sent as a string, a timestamp
// as a number), never fail an attach. The host keeps the strict decoding
// (json.Unmarshal) for what clients dispatch, since it validates them.
//
// Hand-written: encoding/json stops at the first field of the wrong type,
// and no well-kept library decodes a struct field by field while leaving
// out the fields that do not fit (json-iterator's fuzzy decoders only
// convert strings and numbers).

// lenient decodes raw into the value into points at, field by field: a
// field whose JSON does not fit its Go type is left at its zero value
// (after trying the obvious conversions: a number for a string, a numeric
// string for a number, "true"/"false" for a bool), an element of a list or
// map that does not fit is left zero too, and unknown fields are ignored.
// It never fails; what it could not read is simply absent.
func lenient(raw []byte, into any) {
	v := reflect.ValueOf(into)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return
	}
	decodeLenient(raw, v.Elem())
}

// tolerant is a type with its own lenient reading (Value).
type tolerant interface{ tolerate(raw []byte) bool }

var (
	rawMessageType = reflect.TypeFor[json.RawMessage]()
	stringType     = reflect.TypeFor[string]()
	tolerantType   = reflect.TypeFor[tolerant]()
)

func decodeLenient(raw []byte, v reflect.Value) bool {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return false
	}
	if reflect.PointerTo(v.Type()).Implements(tolerantType) {
		return v.Addr().Interface().(tolerant).tolerate(raw)
	}
	if v.Type() == rawMessageType || v.Kind() == reflect.Interface {
		return json.Unmarshal(raw, v.Addr().Interface()) == nil
	}
	if string(raw) == "null" {
		v.SetZero()
		return true
	}
	switch v.Kind() {
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		if !decodeLenient(raw, p.Elem()) {
			return false
		}
		v.Set(p)
		return true
	case reflect.Struct:
		return lenientStruct(raw, v)
	case reflect.Slice:
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			return false
		}
		s := reflect.MakeSlice(v.Type(), 0, len(items))
		for _, it := range items {
			e := reflect.New(v.Type().Elem()).Elem()
			if decodeLenient(it, e) {
				s = reflect.Append(s, e)
			}
		}
		v.Set(s)
		return true
	case reflect.Map:
		var items map[string]json.RawMessage
		if v.Type().Key().Kind() != reflect.String || json.Unmarshal(raw, &items) != nil {
			return false
		}
		m := reflect.MakeMapWithSize(v.Type(), len(items))
		for k, it := range items {
			e := reflect.New(v.Type().Elem()).Elem()
			if decodeLenient(it, e) {
				m.SetMapIndex(reflect.ValueOf(k).Convert(v.Type().Key()), e)
			}
		}
		v.Set(m)
		return true
	}
	return lenientScalar(raw, v)
}

// lenientStruct reads an object's fields by their JSON names (exactly,
// else ignoring case, as encoding/json does); false if raw is no object.
func lenientStruct(raw []byte, v reflect.Value) bool {
	var fields map[string]json.RawMessage
	if json.Unmarshal(raw, &fields) != nil {
		return false
	}
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		it, ok := fields[name]
		if !ok {
			for k, x := range fields {
				if strings.EqualFold(k, name) {
					it, ok = x, true
					break
				}
			}
		}
		if ok {
			decodeLenient(it, v.Field(i))
		}
	}
	return true
}

// lenientScalar reads a string, number or bool, converting the obvious
// cases (into a plain string only: a Response of the wrong type stays
// unknown); false, and v left zero, otherwise.
func lenientScalar(raw []byte, v reflect.Value) bool {
	if json.Unmarshal(raw, v.Addr().Interface()) == nil {
		return true
	}
	v.SetZero()
	text := string(raw)
	if s, err := strconv.Unquote(text); err == nil && raw[0] == '"' {
		text = s
	}
	switch v.Kind() {
	case reflect.String:
		if v.Type() != stringType {
			return false
		}
		if _, err := strconv.ParseFloat(text, 64); err == nil || text == "true" || text == "false" {
			v.SetString(text)
			return true
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if f, err := strconv.ParseFloat(text, 64); err == nil && f == float64(int64(f)) && !v.OverflowInt(int64(f)) {
			v.SetInt(int64(f))
			return true
		}
	case reflect.Float32, reflect.Float64:
		if f, err := strconv.ParseFloat(text, 64); err == nil {
			v.SetFloat(f)
			return true
		}
	case reflect.Bool:
		if b, err := strconv.ParseBool(text); err == nil {
			v.SetBool(b)
			return true
		}
	}
	return false
}

// tolerate reads a value leniently: one whose value does not have its
// kind's JSON type is kept as a value of no known kind (Kind "", the JSON
// in Raw), which fills no field and clears none.
func (v *Value) tolerate(raw []byte) bool {
	if v.UnmarshalJSON(raw) != nil {
		*v = Value{Raw: append(json.RawMessage(nil), raw...)}
	}
	return true
}
