/**
 * What a run reports about itself, as plain data: the stages of a step and their timers, the Chrome
 * trace, the phases whose progress listeners follow, each round's measured costs and their
 * projection to real devices. Imports no other package of the project.
 */
package dev.depbloom.observe;
