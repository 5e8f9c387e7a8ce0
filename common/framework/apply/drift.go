package apply

import (
	"bytes"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

var (
	typeMetaType     = reflect.TypeFor[metav1.TypeMeta]()
	objectMetaType   = reflect.TypeFor[metav1.ObjectMeta]()
	quantityType     = reflect.TypeFor[resource.Quantity]()
	intOrStringType  = reflect.TypeFor[intstr.IntOrString]()
	metaTimeType     = reflect.TypeFor[metav1.Time]()
	microTimeType    = reflect.TypeFor[metav1.MicroTime]()
	timeType         = reflect.TypeFor[time.Time]()
	stringMapType    = reflect.TypeFor[map[string]string]()
	bytesMapType     = reflect.TypeFor[map[string][]byte]()
	resourceListType = reflect.TypeFor[corev1.ResourceList]()
)

// Drift reports the first field the operator owns in desired that live does
// not hold, as a JSON-style path ("spec.template.spec.containers[0].image").
// live and desired are pointers to the same typed API struct. Owned means
// set: a zero field of desired is left to the server's defaults, so only
// metadata labels and annotations (as subsets: other actors add keys) and
// everything outside metadata and status are compared.
func Drift(live, desired any) (path string, drifted bool) {
	l, d := reflect.ValueOf(live), reflect.ValueOf(desired)
	if !l.IsValid() || !d.IsValid() || l.Type() != d.Type() {
		return "", true
	}
	for d.Kind() == reflect.Pointer {
		if d.IsNil() {
			return "", false
		}
		if l.IsNil() {
			return "", true
		}
		l, d = l.Elem(), d.Elem()
	}
	if d.Kind() != reflect.Struct {
		return diff(l, d)
	}
	for _, f := range fieldsOf(d.Type()).fields {
		if f.typ == typeMetaType || f.goName == "Status" {
			continue
		}
		if p, ok := field(l.Field(f.index), d.Field(f.index)); ok {
			return join(f.name, p), true
		}
	}
	return "", false
}

// structFields is a struct type's exported fields, with their path names.
type structFields struct {
	fields []fieldInfo
	// opaque is a type outside the API conventions that hides state in
	// unexported fields: compared whole.
	opaque bool
}

type fieldInfo struct {
	index        int
	name, goName string
	typ          reflect.Type
}

// fieldCache maps reflect.Type to structFields: reading a type's fields
// through reflection costs more than comparing their values.
var fieldCache sync.Map

func fieldsOf(t reflect.Type) structFields {
	if c, ok := fieldCache.Load(t); ok {
		return c.(structFields)
	}
	var out structFields
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			out.opaque = true
			continue
		}
		if f.Tag.Get("json") == "-" {
			continue // never serialised, so never on the live object
		}
		out.fields = append(out.fields, fieldInfo{index: i, name: fieldName(f), goName: f.Name, typ: f.Type})
	}
	fieldCache.Store(t, out)
	return out
}

// field compares a struct field, skipping it when desired leaves it unset.
func field(l, d reflect.Value) (string, bool) {
	if unset(d) {
		return "", false
	}
	return diff(l, d)
}

// unset is a desired value the server may default: nil, or a zero scalar or
// leaf. A non-leaf struct is walked instead: its unset fields skip themselves.
func unset(d reflect.Value) bool {
	switch d.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Map, reflect.Slice:
		return d.IsNil()
	case reflect.Struct:
		return leaf(d.Type()) && d.IsZero()
	default:
		return d.IsZero()
	}
}

// leaf types are compared by value, not walked.
func leaf(t reflect.Type) bool {
	switch t {
	case quantityType, intOrStringType, metaTimeType, microTimeType, timeType:
		return true
	}
	return false
}

// diff compares live with desired, a value the operator set.
func diff(l, d reflect.Value) (string, bool) {
	t := d.Type()
	switch d.Kind() {
	case reflect.Pointer:
		if d.IsNil() {
			return "", false
		}
		if l.IsNil() {
			return "", true
		}
		return diff(l.Elem(), d.Elem())
	case reflect.Interface:
		if d.IsNil() {
			return "", false
		}
		return "", l.IsNil() || !equality.Semantic.DeepEqual(l.Interface(), d.Interface())
	case reflect.Struct:
		if t == objectMetaType {
			return metaDiff(l, d)
		}
		if leaf(t) {
			return "", !leafEqual(l, d)
		}
		return structDiff(l, d)
	case reflect.Map:
		if d.IsNil() {
			return "", false
		}
		return mapDiff(l, d)
	case reflect.Slice:
		if d.IsNil() {
			return "", false
		}
		if t.Elem().Kind() == reflect.Uint8 {
			return "", !bytes.Equal(l.Bytes(), d.Bytes())
		}
		if l.Len() != d.Len() {
			return "", true
		}
		return elemsDiff(l, d)
	case reflect.Array:
		return elemsDiff(l, d)
	case reflect.String:
		return "", l.String() != d.String()
	case reflect.Bool:
		return "", l.Bool() != d.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "", l.Int() != d.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "", l.Uint() != d.Uint()
	case reflect.Float32, reflect.Float64:
		return "", l.Float() != d.Float()
	default:
		return "", !equality.Semantic.DeepEqual(l.Interface(), d.Interface())
	}
}

func structDiff(l, d reflect.Value) (string, bool) {
	sf := fieldsOf(d.Type())
	if sf.opaque {
		return "", !equality.Semantic.DeepEqual(l.Interface(), d.Interface())
	}
	for _, f := range sf.fields {
		if p, ok := field(l.Field(f.index), d.Field(f.index)); ok {
			return join(f.name, p), true
		}
	}
	return "", false
}

func elemsDiff(l, d reflect.Value) (string, bool) {
	for i := range d.Len() {
		if p, ok := diff(l.Index(i), d.Index(i)); ok {
			return join("["+strconv.Itoa(i)+"]", p), true
		}
	}
	return "", false
}

// metaDiff compares the labels and annotations of an object or a pod
// template as subsets: other controllers and kubectl add keys of their own.
func metaDiff(l, d reflect.Value) (string, bool) {
	lm, dm := ptrTo[metav1.ObjectMeta](l), ptrTo[metav1.ObjectMeta](d)
	if k, ok := subsetDiff(lm.Labels, dm.Labels); ok {
		return join("labels", k), true
	}
	if k, ok := subsetDiff(lm.Annotations, dm.Annotations); ok {
		return join("annotations", k), true
	}
	return "", false
}

func subsetDiff(live, desired map[string]string) (string, bool) {
	for k, v := range desired {
		if lv, ok := live[k]; !ok || lv != v {
			return keyPath(k), true
		}
	}
	return "", false
}

// mapDiff wants the same key set and equal values: an extra key in a
// selector or in a Secret's data changes what the object does.
func mapDiff(l, d reflect.Value) (string, bool) {
	t := d.Type()
	switch t {
	case stringMapType:
		lm, dm := l.Interface().(map[string]string), d.Interface().(map[string]string)
		if k, ok := subsetDiff(lm, dm); ok {
			return k, true
		}
		return extraKey(lm, dm)
	case bytesMapType:
		lm, dm := l.Interface().(map[string][]byte), d.Interface().(map[string][]byte)
		for k, v := range dm {
			if lv, ok := lm[k]; !ok || !bytes.Equal(lv, v) {
				return keyPath(k), true
			}
		}
		return extraKey(lm, dm)
	case resourceListType:
		lm, dm := l.Interface().(corev1.ResourceList), d.Interface().(corev1.ResourceList)
		for k, v := range dm {
			if lv, ok := lm[k]; !ok || lv.Cmp(v) != 0 {
				return keyPath(string(k)), true
			}
		}
		return extraKey(lm, dm)
	}
	it := d.MapRange()
	for it.Next() {
		lv := l.MapIndex(it.Key())
		if !lv.IsValid() {
			return valueKeyPath(it.Key()), true
		}
		if p, ok := diff(lv, it.Value()); ok {
			return join(valueKeyPath(it.Key()), p), true
		}
	}
	if l.Len() != d.Len() {
		for _, k := range l.MapKeys() {
			if !d.MapIndex(k).IsValid() {
				return valueKeyPath(k), true
			}
		}
	}
	return "", false
}

// extraKey names a live key desired lacks; desired's keys are all in live.
func extraKey[K ~string, V any](live, desired map[K]V) (string, bool) {
	if len(live) == len(desired) {
		return "", false
	}
	for k := range live {
		if _, ok := desired[k]; !ok {
			return keyPath(string(k)), true
		}
	}
	return "", false
}

// leafEqual compares values the API server re-encodes: a Quantity in its
// canonical form, times at the precision they are serialised with.
func leafEqual(l, d reflect.Value) bool {
	switch d.Type() {
	case quantityType:
		return ptrTo[resource.Quantity](l).Cmp(*ptrTo[resource.Quantity](d)) == 0
	case intOrStringType:
		return *ptrTo[intstr.IntOrString](l) == *ptrTo[intstr.IntOrString](d)
	case metaTimeType:
		return ptrTo[metav1.Time](l).Unix() == ptrTo[metav1.Time](d).Unix()
	case microTimeType:
		lt, dt := ptrTo[metav1.MicroTime](l), ptrTo[metav1.MicroTime](d)
		return lt.Truncate(time.Microsecond).Equal(dt.Truncate(time.Microsecond))
	case timeType:
		return ptrTo[time.Time](l).Equal(*ptrTo[time.Time](d))
	}
	return equality.Semantic.DeepEqual(l.Interface(), d.Interface())
}

// ptrTo reads v as a *T, without the copy Interface makes of an addressable value.
func ptrTo[T any](v reflect.Value) *T {
	if v.CanAddr() {
		return v.Addr().Interface().(*T)
	}
	out := v.Interface().(T)
	return &out
}

func fieldName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "" && f.Anonymous {
		return "" // inlined: its fields sit at this level
	}
	if name == "" {
		return f.Name
	}
	return name
}

func keyPath(k string) string { return "[" + strconv.Quote(k) + "]" }

func valueKeyPath(k reflect.Value) string {
	if k.Kind() == reflect.String {
		return keyPath(k.String())
	}
	return keyPath(fmt.Sprint(k.Interface()))
}

// join appends the path below a segment to it.
func join(seg, rest string) string {
	switch {
	case rest == "":
		return seg
	case seg == "" || strings.HasPrefix(rest, "["):
		return seg + rest
	default:
		return seg + "." + rest
	}
}
