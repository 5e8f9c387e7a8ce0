module github.com/c5c3/openstack-operators/hack/release

go 1.26.0
