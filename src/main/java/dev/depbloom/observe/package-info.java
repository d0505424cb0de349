/**
 * What a run reports about itself, as plain data: the stages of a step and their timers (totals of
 * the times measured elsewhere), the Chrome trace, the phases whose progress listeners follow, each
 * round's measured costs and recorded work ({@code RoundCosts}, {@code RoundWork}), and where a
 * schedule keeps memory on real devices ({@code MemoryPlacement}); projecting them onto devices is
 * the {@code projection} package's. May import {@code tensor} (the work recorder and its plain-Java
 * results) and nothing above it.
 */
package dev.depbloom.observe;
