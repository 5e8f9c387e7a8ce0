package testenv

import (
	"sync"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// ClosedURL is where a CR without a registered probe URL is probed: nothing
// listens on port 1, so the probe fails with ConnectionFailed.
const ClosedURL = "http://127.0.0.1:1/"

// ProbeURLs maps CRs (by namespace/name) to the URL their health probe
// hits in a test: an operator's ProbeURL hook is the method value URL.
type ProbeURLs struct {
	mu   sync.Mutex
	urls map[string]string
}

// URL returns the CR's registered URL, else ClosedURL.
func (p *ProbeURLs) URL(obj client.Object, _ string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if u, ok := p.urls[obj.GetNamespace()+"/"+obj.GetName()]; ok {
		return u
	}
	return ClosedURL
}

// Set registers url for the CR namespace/name; "" removes it.
func (p *ProbeURLs) Set(namespace, name, url string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.urls == nil {
		p.urls = map[string]string{}
	}
	if url == "" {
		delete(p.urls, namespace+"/"+name)
		return
	}
	p.urls[namespace+"/"+name] = url
}
