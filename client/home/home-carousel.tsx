/** The home carousel: a CSS scroll-snap row that works without JavaScript; controls appear once hydrated (docs/behaviour.md#home-page). */
import type { Slide } from "../../shared/entities.ts";
import { ResponsiveImg, showsImage } from "../components/responsive-img.tsx";
import { linkOf, textOf } from "../data/content-values.ts";
import { fill } from "../i18n/fill.ts";
import { HOME_MESSAGES } from "../i18n/messages-home.ts";
import { useT } from "../i18n/use-t.ts";
import { useCarousel } from "./use-carousel.ts";

const AUTOPLAY_MS = 6000;
export const MAX_SLIDES = 10;
const SLIDE_WIDTH = 1920;
const SLIDE_HEIGHT = 720;

export function HomeCarousel({ slides: all }: { slides: Slide[] }) {
  const t = useT(HOME_MESSAGES);
  const slides = all.slice(0, MAX_SLIDES);
  const count = slides.length;
  const many = count > 1;
  const { viewportRef, ready, current, paused, setPaused, playing, go, rootProps } = useCarousel(count, AUTOPLAY_MS);

  if (count === 0) return null;
  return (
    <section
      className="carousel"
      aria-roledescription={t("home.carousel.role")}
      aria-label={t("home.carousel")}
      data-ready={ready || undefined}
      {...rootProps}
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
            onClick={() => go(current - 1)}
          >
            <svg viewBox="0 0 16 16" aria-hidden="true">
              <path d="M10.5 2 4.5 8l6 6" />
            </svg>
          </button>
          <button
            type="button"
            className="carousel-button carousel-next"
            aria-label={t("home.carousel.next")}
            onClick={() => go(current + 1)}
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
                aria-current={index === current || undefined}
                onClick={() => go(index)}
              />
            ))}
          </div>
        </div>
      )}
      {/* A scrolling box must be reachable by keyboard: through its slides' links, or itself when none has one. */}
      <div className="carousel-viewport" ref={viewportRef} tabIndex={slides.some((slide) => linkOf(slide.url)) ? undefined : 0}>
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

/** The headline is text over the picture (which then needs no alt of its own): it reads at every width, and is translated. */
function SlideContent({ slide, first, newTab }: { slide: Slide; first: boolean; newTab: string }) {
  const title = textOf(slide.title);
  const url = linkOf(slide.url);
  const image = showsImage(slide.img) && (
    <ResponsiveImg
      src={slide.img}
      alt=""
      width={SLIDE_WIDTH}
      height={SLIDE_HEIGHT}
      box={[320, SLIDE_WIDTH]}
      sizes="100vw"
      // The first slide is the page's largest paint; the others wait until they come near.
      {...(first ? { fetchPriority: "high" as const } : { loading: "lazy" as const, decoding: "async" as const })}
      draggable={false}
    />
  );
  const caption = title && (
    <span className="carousel-title">
      <span>{title}</span>
    </span>
  );
  if (!url)
    return (
      <>
        {image}
        {caption}
      </>
    );
  return (
    <a href={url} target="_blank" rel="noopener noreferrer" className="carousel-link">
      {image}
      {caption}
      <span className="visually-hidden">{newTab}</span>
    </a>
  );
}
