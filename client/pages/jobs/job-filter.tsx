/**
 * The job list's filter: a GET form in a <details> disclosure in the server HTML, moved into a
 * modal <dialog> once hydrated (docs/behaviour.md#list-pages).
 */
import { type KeyboardEvent, memo, type ReactNode, type RefObject, useCallback, useEffect, useId, useRef, useState } from "react";
import type { JobAddr, JobType } from "../../../shared/entities.ts";
import { idListOf, type JobFilter } from "../../../shared/list-query.ts";
import { DEFAULT_PAGE_SIZE } from "../../../shared/params.ts";
import { withQuery } from "../../../shared/with-query.ts";
import { useFormAction, useGo } from "../../hooks/page-query.ts";
import { useHydratedSoon } from "../../hooks/use-hydrated.ts";
import { fill } from "../../i18n/fill.ts";
import { PAGES_MESSAGES } from "../../i18n/messages-pages.ts";
import { useT } from "../../i18n/use-t.ts";
import { PageLink } from "../../routing/page-link.tsx";

interface JobFilterProps {
  path: string;
  filter: JobFilter;
  types: JobType[];
  addrs: JobAddr[];
}

/** Always the list's first page, keeping the page size. */
export function jobFilterHref(path: string, filter: Pick<JobFilter, "jobTypeIds" | "jobAddrIds" | "size">): string {
  return withQuery(path, {
    jobTypeIds: filter.jobTypeIds.join(","),
    jobAddrIds: filter.jobAddrIds.join(","),
    size: filter.size !== DEFAULT_PAGE_SIZE ? filter.size : undefined,
  });
}

export function JobFilterDrawer({ path, filter, types, addrs }: JobFilterProps) {
  const t = useT(PAGES_MESSAGES);
  const hydrated = useHydratedSoon();
  const go = useGo();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const [open, setOpen] = useState(false);
  const handOver = useRef<HandOver | null>(null);
  // A new key resets the boxes to the applied filter when the drawer closes without applying.
  const [formKey, setFormKey] = useState(0);
  const count = filter.jobTypeIds.length + filter.jobAddrIds.length;
  const label = count > 0 ? fill(t("pages.jobs.filterCount"), { n: count }) : t("pages.jobs.filter");
  // The same function every render, so the form (memo) is left alone when only the drawer renders again.
  const close = useCallback(() => dialogRef.current?.close(), []);

  // The panel fills the dialog, so a click on the dialog itself is on its backdrop.
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!hydrated || !dialog) return;
    const onClick = (event: MouseEvent) => {
      if (event.target === dialog) dialog.close();
    };
    dialog.addEventListener("click", onClick);
    const carried = handOver.current;
    if (carried) {
      handOver.current = null;
      for (const box of dialog.querySelectorAll<HTMLInputElement>("input[type=checkbox]"))
        box.checked = carried.ticked.includes(`${box.name}=${box.value}`);
      dialog.showModal();
      setOpen(true);
    }
    return () => dialog.removeEventListener("click", onClick);
  }, [hydrated]);

  const apply = (form: HTMLFormElement) => {
    const data = new FormData(form);
    const ids = (name: string) => idListOf(data.getAll(name).join(","));
    close();
    go(jobFilterHref(path, { jobTypeIds: ids("jobTypeIds"), jobAddrIds: ids("jobAddrIds"), size: filter.size }));
  };

  const form = (
    <JobFilterForm
      key={`${formKey}|${filter.jobTypeIds}|${filter.jobAddrIds}`}
      path={path}
      filter={filter}
      types={types}
      addrs={addrs}
      onApply={hydrated ? apply : undefined}
      onClear={close}
    />
  );

  if (!hydrated) return <StaticDrawer label={label} form={form} handOver={handOver} />;
  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        className="button job-filter-button"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => {
          dialogRef.current?.showModal();
          setOpen(true);
        }}
      >
        {label}
      </button>
      <dialog
        ref={dialogRef}
        className="job-drawer"
        aria-labelledby={titleId}
        onKeyDown={keepFocusInside}
        onClose={() => {
          setOpen(false);
          setFormKey((key) => key + 1);
          buttonRef.current?.focus();
        }}
      >
        <div className="job-drawer-panel">
          <div className="job-drawer-head">
            <h2 id={titleId}>{t("pages.jobs.filter")}</h2>
            <button type="button" className="job-drawer-close" aria-label={t("pages.jobs.close")} onClick={close}>
              <span aria-hidden="true">×</span>
            </button>
          </div>
          {form}
        </div>
      </dialog>
    </>
  );
}

interface HandOver {
  ticked: string[];
}

/** Open as the page takes over, it hands the ticked boxes over to the drawer. */
function StaticDrawer({ label, form, handOver }: { label: string; form: ReactNode; handOver: RefObject<HandOver | null> }) {
  const ref = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const details = ref.current;
    return () => {
      if (!details?.open) return;
      const ticked = [...details.querySelectorAll<HTMLInputElement>("input[type=checkbox]:checked")].map(
        (box) => `${box.name}=${box.value}`,
      );
      handOver.current = { ticked };
    };
  }, [handOver]);
  return (
    // Its `open` is the visitor's if they opened it before the page took over: not a mismatch.
    <details ref={ref} className="job-filter-static" suppressHydrationWarning>
      <summary className="button job-filter-button">{label}</summary>
      <div className="job-filter-panel">{form}</div>
    </details>
  );
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select, textarea, [tabindex]:not([tabindex="-1"])';

/** A modal <dialog> makes the page inert, but Tab from its last control would still leave for the browser's UI. */
function keepFocusInside(event: KeyboardEvent<HTMLDialogElement>): void {
  if (event.key !== "Tab") return;
  const focusable = [...event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)];
  const first = focusable[0];
  const last = focusable.at(-1);
  if (!first || !last) return;
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}

const JobFilterForm = memo(function JobFilterForm({
  path,
  filter,
  types,
  addrs,
  onApply,
  onClear,
}: JobFilterProps & { onApply?: (form: HTMLFormElement) => void; onClear: () => void }) {
  const t = useT(PAGES_MESSAGES);
  const formAction = useFormAction();
  const groups = [
    { name: "jobTypeIds", legend: t("pages.jobs.types"), options: types, checked: filter.jobTypeIds },
    { name: "jobAddrIds", legend: t("pages.jobs.addrs"), options: addrs, checked: filter.jobAddrIds },
  ];
  return (
    <form
      className="job-filter-form"
      method="get"
      action={formAction(path)}
      onSubmit={(event) => {
        if (!onApply) return;
        event.preventDefault();
        onApply(event.currentTarget);
      }}
    >
      {groups.map((group) => (
        <fieldset key={group.name} className="job-filter-group">
          <legend>{group.legend}</legend>
          <div className="job-filter-options">
            {group.options.map((option) => (
              <label key={option.id} className="job-filter-option">
                <input type="checkbox" name={group.name} value={option.id} defaultChecked={group.checked.includes(option.id)} />
                <span>{option.name}</span>
              </label>
            ))}
          </div>
        </fieldset>
      ))}
      {filter.size !== DEFAULT_PAGE_SIZE && <input type="hidden" name="size" value={filter.size} />}
      <div className="job-filter-actions">
        <button type="submit" className="button button-primary">
          {t("pages.jobs.apply")}
        </button>
        <PageLink className="button" to={jobFilterHref(path, { jobTypeIds: [], jobAddrIds: [], size: filter.size })} onClick={onClear}>
          {t("pages.jobs.clear")}
        </PageLink>
      </div>
    </form>
  );
});
