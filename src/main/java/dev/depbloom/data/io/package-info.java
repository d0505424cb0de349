/**
 * Readers of the byte formats data sets come in: counted lines and delimited fields, gzip
 * detection, NumPy {@code .npy} and PyTorch {@code .pt} tensors. Imports {@code data} only.
 */
package dev.depbloom.data.io;
