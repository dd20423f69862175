/**
 * The home carousel (SPEC sections 2 and 9): up to 10 slides, autoplay every 6 s.
 *
 * The server renders every slide in a row with the first one showing, its box sized by
 * CSS (the banners are 1920x720, aspect 8/3), so Embla taking over after hydration
 * moves nothing. Without JavaScript the row scrolls sideways and the controls stay
 * hidden. Autoplay waits while the pointer is over the carousel, while keyboard focus
 * is inside it, after the visitor presses pause, and never starts for visitors who ask
 * for reduced motion (following the WAI-ARIA carousel pattern).
 */
import type { EmblaCarouselType } from "embla-carousel";
import Autoplay from "embla-carousel-autoplay";
import useEmblaCarousel from "embla-carousel-react";
import { type FocusEvent, useEffect, useRef, useState } from "react";
import type { Slide } from "../../shared/entities.ts";
import { fill } from "../i18n/fill.ts";
import { useT } from "../i18n/use-t.ts";
import { prefersReducedMotion } from "../routing/scroll.ts";
import { textOf } from "./home-helpers.tsx";

export const AUTOPLAY_MS = 6000;
export const MAX_SLIDES = 10;
/** The banners' natural size; CSS keeps the box at this aspect ratio. */
const SLIDE_WIDTH = 1920;
const SLIDE_HEIGHT = 720;

export function HomeCarousel({ slides: all }: { slides: Slide[] }) {
  const t = useT();
  const slides = all.slice(0, MAX_SLIDES);
  const count = slides.length;
  const many = count > 1;
  // Stable across renders: Embla re-initialises when its options or plugins change.
  const [options] = useState(() => ({ loop: true, active: many }));
  const [plugins] = useState(() => [Autoplay({ delay: AUTOPLAY_MS, playOnInit: false, stopOnInteraction: true, stopOnFocusIn: false })]);
  const [viewportRef, api] = useEmblaCarousel(options, plugins);
  const reducedMotion = useRef(false);
  const [ready, setReady] = useState(false);
  const [selected, setSelected] = useState(0);
  const [paused, setPaused] = useState(false);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const playing = ready && many && !paused && !hovered && !focused;

  useEffect(() => {
    reducedMotion.current = prefersReducedMotion();
    if (reducedMotion.current) setPaused(true);
    setReady(true);
  }, []);

  useEffect(() => {
    if (!api) return;
    const onSelect = (embla: EmblaCarouselType) => setSelected(embla.selectedScrollSnap());
    onSelect(api);
    api.on("select", onSelect).on("reInit", onSelect);
    return () => void api.off("select", onSelect).off("reInit", onSelect);
  }, [api]);

  useEffect(() => {
    const autoplay = api?.plugins().autoplay;
    if (!api || !autoplay || !many) return;
    if (!playing) {
      autoplay.stop();
      return;
    }
    autoplay.play();
    // A swipe stops the timer (stopOnInteraction); it starts again when the pointer lets go.
    const resume = () => autoplay.play();
    api.on("pointerUp", resume);
    return () => void api.off("pointerUp", resume);
  }, [api, playing, many]);

  /** Manual moves jump under reduced motion and give the new slide a full 6 s. */
  const go = (move: (embla: EmblaCarouselType, jump: boolean) => void) => {
    if (!api) return;
    move(api, reducedMotion.current);
    api.plugins().autoplay?.reset();
  };

  const onFocus = (event: FocusEvent<HTMLElement>) => {
    if (event.target.matches(":focus-visible")) setFocused(true);
  };
  const onBlur = (event: FocusEvent<HTMLElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
  };

  if (count === 0) return null;
  return (
    <section
      className="carousel"
      aria-roledescription={t("home.carousel.role")}
      aria-label={t("home.carousel")}
      data-ready={ready || undefined}
      // A mouse over the carousel pauses it; a finger's tap must not leave it paused.
      onPointerEnter={(event) => event.pointerType === "mouse" && setHovered(true)}
      onPointerLeave={() => setHovered(false)}
      onFocus={onFocus}
      onBlur={onBlur}
    >
      {many && (
        <div className="carousel-controls">
          <button
            type="button"
            className="carousel-button carousel-toggle"
            aria-label={paused ? t("home.carousel.play") : t("home.carousel.pause")}
            onClick={() => setPaused(!paused)}
          >
            <svg viewBox="0 0 16 16" aria-hidden="true">
              <path d={paused ? "M4 2.5v11l9.5-5.5z" : "M3.5 2.5h3v11h-3zm6 0h3v11h-3z"} />
            </svg>
          </button>
          <button
            type="button"
            className="carousel-button carousel-prev"
            aria-label={t("home.carousel.prev")}
            onClick={() => go((embla, jump) => embla.scrollPrev(jump))}
          >
            <svg viewBox="0 0 16 16" aria-hidden="true">
              <path d="M10.5 2 4.5 8l6 6" />
            </svg>
          </button>
          <button
            type="button"
            className="carousel-button carousel-next"
            aria-label={t("home.carousel.next")}
            onClick={() => go((embla, jump) => embla.scrollNext(jump))}
          >
            <svg viewBox="0 0 16 16" aria-hidden="true">
              <path d="M5.5 2l6 6-6 6" />
            </svg>
          </button>
          {/* biome-ignore lint/a11y/useSemanticElements: a labelled set of buttons, not a form's fieldset */}
          <div className="carousel-dots" role="group" aria-label={t("home.carousel.pick")}>
            {slides.map((slide, index) => (
              <button
                // biome-ignore lint/suspicious/noArrayIndexKey: slides are positions; the list never reorders in place
                key={`${index}-${textOf(slide.img)}`}
                type="button"
                className="carousel-dot"
                aria-label={fill(t("home.carousel.goTo"), { n: index + 1 })}
                aria-current={index === selected || undefined}
                onClick={() => go((embla, jump) => embla.scrollTo(index, jump))}
              />
            ))}
          </div>
        </div>
      )}
      <div className="carousel-viewport" ref={viewportRef}>
        <div className="carousel-track" aria-live={playing ? "off" : "polite"}>
          {slides.map((slide, index) => (
            // biome-ignore lint/a11y/useSemanticElements: the WAI-ARIA carousel pattern's slide is a group
            <div
              // biome-ignore lint/suspicious/noArrayIndexKey: slides are positions; the list never reorders in place
              key={`${index}-${textOf(slide.img)}`}
              className="carousel-slide"
              role="group"
              aria-roledescription={t("home.carousel.slide")}
              aria-label={fill(t("home.carousel.slideOf"), { n: index + 1, m: count })}
            >
              <SlideContent slide={slide} first={index === 0} newTab={t("home.newTab")} />
            </div>
          ))}
        </div>
      </div>
    </section>
  );
}

function SlideContent({ slide, first, newTab }: { slide: Slide; first: boolean; newTab: string }) {
  const title = textOf(slide.title);
  const url = textOf(slide.url);
  const image = textOf(slide.img) ? (
    <img
      src={slide.img}
      alt={title}
      width={SLIDE_WIDTH}
      height={SLIDE_HEIGHT}
      // The first slide is the page's largest paint; the others wait until they come near.
      {...(first ? { fetchPriority: "high" as const } : { loading: "lazy" as const, decoding: "async" as const })}
      draggable={false}
    />
  ) : (
    <span className="carousel-title">{title}</span>
  );
  if (!url) return image;
  return (
    <a href={url} target="_blank" rel="noopener noreferrer" className="carousel-link">
      {image}
      <span className="visually-hidden">{newTab}</span>
    </a>
  );
}
