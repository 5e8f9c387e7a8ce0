package testenv

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
)

// Writes counts the mutating calls a fake client received, by verb.
type Writes struct{ Create, Update, Patch, Delete, Status int }

// Total is the number of writes of every verb.
func (w *Writes) Total() int { return w.Create + w.Update + w.Patch + w.Delete + w.Status }

// CountWrites returns interceptors that count every write into w, then run
// extra's function for that call when set (to inject errors), else the
// client's own. extra's read interceptors are kept as they are.
func CountWrites(w *Writes, extra interceptor.Funcs) interceptor.Funcs {
	f := extra
	f.Create = func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.CreateOption) error {
		w.Create++
		if extra.Create != nil {
			return extra.Create(ctx, c, obj, opts...)
		}
		return c.Create(ctx, obj, opts...)
	}
	f.Update = func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.UpdateOption) error {
		w.Update++
		if extra.Update != nil {
			return extra.Update(ctx, c, obj, opts...)
		}
		return c.Update(ctx, obj, opts...)
	}
	f.Patch = func(ctx context.Context, c client.WithWatch, obj client.Object, p client.Patch, opts ...client.PatchOption) error {
		w.Patch++
		if extra.Patch != nil {
			return extra.Patch(ctx, c, obj, p, opts...)
		}
		return c.Patch(ctx, obj, p, opts...)
	}
	f.Delete = func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.DeleteOption) error {
		w.Delete++
		if extra.Delete != nil {
			return extra.Delete(ctx, c, obj, opts...)
		}
		return c.Delete(ctx, obj, opts...)
	}
	f.SubResourceUpdate = func(ctx context.Context, c client.Client, sub string, obj client.Object, opts ...client.SubResourceUpdateOption) error {
		w.Status++
		if extra.SubResourceUpdate != nil {
			return extra.SubResourceUpdate(ctx, c, sub, obj, opts...)
		}
		return c.SubResource(sub).Update(ctx, obj, opts...)
	}
	return f
}
