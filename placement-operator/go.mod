module github.com/c5c3/openstack-operators/placement-operator

go 1.26.0

require github.com/c5c3/openstack-operators/common v0.0.0
replace github.com/c5c3/openstack-operators/common => ../common
