package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// GetConditions gives the status skeleton access to the conditions.
func (p *Placement) GetConditions() *[]metav1.Condition { return &p.Status.Conditions }

// SetObservedGeneration stamps status.observedGeneration.
func (p *Placement) SetObservedGeneration(g int64) { p.Status.ObservedGeneration = g }

// StatusSnapshot returns a deep copy of the status for change detection.
func (p *Placement) StatusSnapshot() any { return *p.Status.DeepCopy() }
