/**
 * The boundary to the JavaCPP libtorch binding: step scopes, array and tensor copies, autograd and
 * random generators, thread budgets, worker pools, c10d process groups and a rank's device.
 * JavaCPP's pointer types stay in here; layers above use the binding's {@code Tensor} and {@code
 * Module}. Imports {@code data} only (for its input errors).
 */
package dev.depbloom.tensor;
