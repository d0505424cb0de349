/**
 * DepBloom-J as a module: {@link dev.depbloom.api} is its whole public surface (README, "Using a
 * trained model"); every other package is public only so that the layers below the API can reach
 * each other, and a module that {@code requires dev.depbloom} sees none of them
 * (ModuleBoundaryTest).
 *
 * <p>The build still runs on the class path too ({@code java -jar target/depbloom.jar}, the tests),
 * where this descriptor is ignored and META-INF/services lists the schedule families.
 *
 * <p>The {@code opens} are for reflection only, each only to the libraries that reflect: picocli
 * sets the annotated fields of the command classes and builds them, and Jackson reads the records
 * it writes ({@code comparison.json}, {@code inspect --json}, {@code sampler-bench --json}) and
 * builds {@code EventStoreManifest} from a store's {@code manifest.json}.
 *
 * <p>The tensor engine's natives ({@code org.bytedeco.*.linux.x86_64}, or {@code -gpu}) are not
 * required here, so that one descriptor serves the CPU and the GPU build: on the module path add
 * them with {@code --add-modules}.
 */
module dev.depbloom {
  exports dev.depbloom.api;

  requires java.desktop; // java.awt colours and strokes of the comparison plots
  requires java.management; // MXBeans: serve benchmark's GC and CPU time, launch's JVM options
  requires java.net.http; // the serve benchmark's client
  requires org.bytedeco.javacpp;
  requires org.bytedeco.openblas;
  requires org.bytedeco.pytorch;
  requires info.picocli;
  requires com.fasterxml.jackson.annotation;
  requires com.fasterxml.jackson.core;
  requires com.fasterxml.jackson.databind;
  requires com.fasterxml.jackson.dataformat.yaml;
  requires org.eclipse.jetty.http;
  requires org.eclipse.jetty.io;
  requires org.eclipse.jetty.server;
  requires org.eclipse.jetty.util;
  requires org.knowm.xchart; // an automatic module (Automatic-Module-Name)

  uses dev.depbloom.schedule.ScheduleFamily;

  provides dev.depbloom.schedule.ScheduleFamily with
      dev.depbloom.schedule.sequential.SequentialFamily,
      dev.depbloom.schedule.disttgl.DistTglFamily,
      dev.depbloom.schedule.depbloom.DepBloomFamily;

  // picocli: @Command classes, their @Option/@Parameters/@Mixin fields and converters
  opens dev.depbloom.cli to
      info.picocli,
      com.fasterxml.jackson.databind;
  // Jackson: records written as JSON, and the event store's manifest read back
  opens dev.depbloom.bench to
      com.fasterxml.jackson.databind;
  opens dev.depbloom.data.load to
      com.fasterxml.jackson.databind;
  opens dev.depbloom.data.store to
      com.fasterxml.jackson.databind;
  opens dev.depbloom.projection to
      com.fasterxml.jackson.databind;
  opens dev.depbloom.schedule.depbloom to
      com.fasterxml.jackson.databind;
  opens dev.depbloom.schedule.disttgl to
      com.fasterxml.jackson.databind;
  opens dev.depbloom.schedule.sequential to
      com.fasterxml.jackson.databind;
}
