/**
 * The {@code sequential} schedule family: TGL's training on one logical device, the accuracy
 * reference of every other schedule. Imports {@code schedule} and the layers below it.
 */
package dev.depbloom.schedule.sequential;
