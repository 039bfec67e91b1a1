package mcpconn

import "testing"

// BenchmarkObserveForm is what the observer does for each form of
// bench/mcpforms: the server's elicitation/create, then elicit's answer.
func BenchmarkObserveForm(b *testing.B) {
	in := []byte(`{"jsonrpc":"2.0","id":17,"method":"elicitation/create","params":{"message":"Form 17 of 1000","requestedSchema":{"properties":{"color":{"enum":["red","green","blue"],"title":"Colour","type":"string"},"count":{"maximum":100,"minimum":0,"title":"Count","type":"integer"},"name":{"description":"Who is asking","title":"Name","type":"string"},"ok":{"title":"Proceed?","type":"boolean"}},"required":["name","count","ok","color"],"type":"object"}}}`)
	out := []byte(`{"jsonrpc":"2.0","id":17,"result":{"action":"accept","content":{"color":"green","count":3,"name":"bench","ok":true}}}`)
	o := newObserver(nil)
	b.ReportAllocs()
	for b.Loop() {
		o.in(in)
		o.mu.Lock()
		o.asked["17"].handled = true
		delete(o.schemas, o.asked["17"].key)
		o.mu.Unlock()
		o.out(out)
	}
}
