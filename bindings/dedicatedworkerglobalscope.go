package bindings

// workerGlobalImpl implements DedicatedWorkerGlobalScope.
var _ DedicatedWorkerGlobalScopeMethods = (*workerGlobalImpl)(nil)
