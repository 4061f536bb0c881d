import { BUILT_IN_VARIABLES, CHANNELS, type Channel } from '@ecoa/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Card, Group, Radio, SimpleGrid, Stack, Stepper, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { isApiError } from '../../../platform/api';
import { LoadErrorAlert } from '../../../ui/LoadErrorAlert';
import { LoadingState } from '../../../ui/LoadingState';
import { usePhone } from '../../../ui/usePhone';
import { refreshMoney } from '../../credits';
import { listsApi } from '../../lists';
import { listsKeys } from '../../lists/queryKeys';
import { campaignsApi } from '../campaignsApi';
import { campaignsKeys } from '../queryKeys';
import { ContentStep } from './ContentStep';
import {
  emptyDraft,
  fromCampaign,
  type ScheduleProblem,
  startRequest,
  toRequest,
  type WizardDraft,
  wizardDraftSchema,
} from './draft';
import { wizardErrorText } from './problemText';
import { RecipientsStep } from './RecipientsStep';
import { ReviewStep } from './ReviewStep';
import { ScheduleStep } from './ScheduleStep';
import { StepCount } from './StepCount';

const MOBILE_ONLY = new Set<Channel>(['sms_short', 'sms_flash', 'whatsapp', 'rcs']);
const WHEN_STEP = 3;
const LAST = 4;
const SCHEDULE_CODES = new Set<string>(['SCHEDULE_REQUIRED', 'SCHEDULE_IN_PAST']);
/** The server refused the schedule: its code, shown on the date field. */
const scheduleRefusal = (err: unknown): ScheduleProblem | null =>
  isApiError(err) && err.code && SCHEDULE_CODES.has(err.code) ? (err.code as ScheduleProblem) : null;

/**
 * `/campanhas/criar-campanha`: channel → recipients → content → when → review → start. The draft
 * is saved on the server from the first step on (`?rascunho=<id>` edits one), so nothing typed is
 * lost and the estimate is always the server's. A draft opened here is read from the server each
 * time (never a cached copy), and the form shows only once that read arrived: every save is of a
 * form loaded from the server's current version. A failed read shows its reason and "try again".
 */
export function CreateCampaignPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const phone = usePhone();
  const draftId = params.get('rascunho');
  const [step, setStep] = useState(0);
  // The draft as typed; a refused schedule (by the form's rule, `wizardDraftSchema`, or the server)
  // is the date field's error, until the schedule changes.
  const form = useForm<WizardDraft>({
    resolver: zodResolver(wizardDraftSchema),
    reValidateMode: 'onSubmit',
    defaultValues: emptyDraft(),
  });
  const draft = form.watch();
  const scheduleError = (form.formState.errors.scheduleAt?.message ?? null) as ScheduleProblem | null;
  const [saved, setSaved] = useState(0);
  /** The draft the form holds: loaded from the server, or created by this form (its own save). */
  const [loadedFor, setLoadedFor] = useState<string | null>(null);
  const set = (patch: Partial<WizardDraft>) => {
    if ('when' in patch || 'scheduleAt' in patch) form.clearErrors('scheduleAt');
    for (const [key, value] of Object.entries(patch) as [keyof WizardDraft, WizardDraft[keyof WizardDraft]][]) {
      form.setValue(key, value, { shouldDirty: true });
    }
  };

  // The draft this form created: set before the address names it, so no render in between reads
  // it back (the router may apply the new address a render later than this state).
  const createdHere = useRef<string | null>(null);
  const needsLoad = Boolean(draftId) && loadedFor !== draftId && createdHere.current !== draftId;
  const existing = useQuery({
    queryKey: campaignsKeys.draft(draftId),
    queryFn: () => campaignsApi.get(draftId!),
    enabled: needsLoad,
    // Never from the cache: another tab or a colleague may have changed it since.
    staleTime: 0,
    gcTime: 0,
    refetchOnMount: 'always',
  });
  useEffect(() => {
    if (!needsLoad || !existing.data || !existing.isFetchedAfterMount || existing.isFetching) return;
    form.reset(fromCampaign(existing.data));
    setLoadedFor(existing.data.id);
    setStep(0);
  }, [needsLoad, existing.data, existing.isFetchedAfterMount, existing.isFetching, form]);
  const lists = useQuery({ queryKey: listsKeys.wizard, queryFn: () => listsApi.list(1, 100) });
  const estimate = useQuery({
    queryKey: campaignsKeys.estimate(draftId, saved),
    queryFn: () => campaignsApi.estimate(draftId!),
    enabled: Boolean(draftId) && step >= 1,
  });

  const save = useMutation({
    mutationFn: async (d: WizardDraft) => {
      const body = toRequest(d);
      if (!draftId) {
        const created = await campaignsApi.create({ ...body, name: body.name!, channel: body.channel! });
        // This form is the draft's content: nothing to load back.
        createdHere.current = created.id;
        setLoadedFor(created.id);
        setParams({ rascunho: created.id }, { replace: true });
        return created.id;
      }
      await campaignsApi.update(draftId, body);
      return draftId;
    },
    onSuccess: () => setSaved((n) => n + 1),
    onError: (err) => showScheduleRefusal(scheduleRefusal(err)),
  });
  /** A refused schedule is fixed where it is chosen: the "when" step, its reason on the field. */
  const showScheduleRefusal = (problem: ScheduleProblem | null) => {
    if (!problem) return false;
    form.setError('scheduleAt', { type: 'schedule', message: problem });
    setStep(WHEN_STEP);
    return true;
  };
  const start = useMutation({
    mutationFn: async () => {
      const current = form.getValues();
      const id = await save.mutateAsync(current);
      return campaignsApi.start(id, startRequest(current));
    },
    onError: (err) => showScheduleRefusal(scheduleRefusal(err)),
    onSuccess: (campaign) => {
      void queryClient.invalidateQueries({ queryKey: campaignsKeys.all });
      void queryClient.invalidateQueries({ queryKey: campaignsKeys.dashboardSummary });
      void refreshMoney(queryClient);
      void navigate(`/campanhas/${campaign.id}`);
    },
  });

  // The recipients step counts live: each change of lists is saved, then estimated.
  const chooseLists = (listIds: string[]) => {
    set({ listIds });
    save.mutate(form.getValues());
  };
  // A failed save stays on this step, its reason shown under the stepper.
  // Leaving the "when" step, and starting, need a future date when the user chose to schedule.
  /** The form's rule for the schedule; refused: back on the "when" step, its reason on the field. */
  const scheduleAccepted = async () => {
    if (await form.trigger('scheduleAt')) return true;
    setStep(WHEN_STEP);
    return false;
  };
  const next = async () => {
    if (step === WHEN_STEP && !(await scheduleAccepted())) return;
    save.mutate(form.getValues(), { onSuccess: () => setStep((s) => Math.min(LAST, s + 1)) });
  };
  const startNow = async () => {
    if (await scheduleAccepted()) start.mutate();
  };

  const readyLists = (lists.data?.items ?? []).filter((l) => draft.listIds.includes(l.id));
  const variables = [...BUILT_IN_VARIABLES, ...new Set(readyLists.flatMap((l) => l.fields))];
  const error = start.error ?? save.error;
  const errorText = !error || scheduleRefusal(error) ? null : wizardErrorText(t, error);

  if (needsLoad)
    return existing.isError ? (
      <Stack gap="lg" data-testid="campaign-wizard-load-error">
        <Title order={2}>{t('nav.createCampaign')}</Title>
        <LoadErrorAlert query={existing} fallbackKey="campaignWizard.loadError" />
      </Stack>
    ) : (
      <LoadingState />
    );
  return (
    <Stack gap="lg" data-testid="campaign-wizard">
      <Title order={2}>{t('nav.createCampaign')}</Title>
      <Card withBorder radius="lg" padding="lg">
        {/* A phone has no room for five steps in a row: "Etapa 3 de 5" instead, the content unchanged. */}
        {phone && <StepCount step={step} />}
        <Stepper
          active={step}
          onStepClick={(s) => draftId && setStep(s)}
          allowNextStepsSelect={false}
          size="sm"
          styles={phone ? { steps: { display: 'none' } } : undefined}
        >
          <Stepper.Step label={t('campaignWizard.steps.channel')}>
            <Stack>
              <TextInput
                label={t('campaignWizard.name')}
                placeholder={t('campaignWizard.namePlaceholder')}
                maxLength={120}
                data-testid="wizard-name"
                {...form.register('name')}
              />
              <Radio.Group
                value={draft.channel}
                onChange={(v) => set({ channel: v as Channel })}
                label={t('campaignWizard.channel')}
              >
                <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} mt="xs" spacing="sm">
                  {CHANNELS.map((c) => (
                    <Radio.Card key={c} value={c} radius="md" p="md" data-testid={`wizard-channel-${c}`}>
                      <Group wrap="nowrap" align="flex-start">
                        <Radio.Indicator />
                        <Stack gap={2}>
                          <Text fw={600}>{t(`channels.names.${c}`)}</Text>
                          <Text size="xs" c="dimmed">
                            {t(`campaignWizard.channelHint.${c}`)}
                          </Text>
                        </Stack>
                      </Group>
                    </Radio.Card>
                  ))}
                </SimpleGrid>
              </Radio.Group>
            </Stack>
          </Stepper.Step>
          <Stepper.Step label={t('campaignWizard.steps.recipients')}>
            <RecipientsStep
              lists={lists.data?.items}
              selected={draft.listIds}
              onChange={chooseLists}
              estimate={estimate.data}
              estimating={estimate.isFetching || save.isPending}
              mobileOnly={MOBILE_ONLY.has(draft.channel)}
            />
          </Stepper.Step>
          <Stepper.Step label={t('campaignWizard.steps.content')}>
            <ContentStep
              channel={draft.channel}
              content={draft.content}
              variables={variables}
              onChange={(content) => set({ content })}
            />
          </Stepper.Step>
          <Stepper.Step label={t('campaignWizard.steps.when')}>
            <ScheduleStep draft={draft} onChange={set} problem={scheduleError} />
          </Stepper.Step>
          <Stepper.Step label={t('campaignWizard.steps.review')}>
            <ReviewStep draft={draft} estimate={estimate.data} />
          </Stepper.Step>
        </Stepper>
        {errorText && (
          <Alert color="red" mt="md" data-testid="wizard-error">
            {errorText}
          </Alert>
        )}
        <Group justify="space-between" mt="xl">
          <Button
            variant="default"
            onClick={() => setStep((s) => Math.max(0, s - 1))}
            disabled={step === 0}
            data-testid="wizard-back"
          >
            {t('campaignWizard.back')}
          </Button>
          {step < LAST ? (
            <Button
              onClick={() => void next()}
              loading={save.isPending}
              disabled={step === 1 && draft.listIds.length === 0}
              data-testid="wizard-next"
            >
              {t('campaignWizard.next')}
            </Button>
          ) : (
            <Button
              color="teal"
              onClick={() => void startNow()}
              loading={start.isPending}
              disabled={!estimate.data || estimate.data.problems.length > 0 || estimate.data.shortfall > 0}
              data-testid="wizard-start"
            >
              {t(draft.when === 'later' ? 'campaignWizard.schedule' : 'campaignWizard.start')}
            </Button>
          )}
        </Group>
      </Card>
    </Stack>
  );
}
