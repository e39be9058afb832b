import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { adminInstanceEndpoints as api } from '@shared/contract/endpoints/admin-instance.js';
import type { InstanceRuleInput, InstanceRules } from '@shared/schemas/instance.js';
import { callApi } from '@web/lib/api-client.js';
import { moderationKeys } from '../moderation-keys.js';

/** GET /api/instance/rules: the rules in order, for everyone. */
export function getRules(signal?: AbortSignal): Promise<InstanceRules> {
  return callApi(api.listRules, { signal });
}

export function getRulesQueryOptions() {
  return queryOptions({
    queryKey: moderationKeys.rules(),
    queryFn: ({ signal }) => getRules(signal),
    staleTime: 60_000,
  });
}

export function useRules() {
  return useQuery(getRulesQueryOptions());
}

export type RuleChange =
  | { kind: 'create'; rule: InstanceRuleInput }
  | { kind: 'update'; ruleId: string; rule: InstanceRuleInput }
  | { kind: 'delete'; ruleId: string }
  | { kind: 'reorder'; ids: string[] };

/** Every rule change answers the rules as they now are. */
export function changeRules(change: RuleChange): Promise<InstanceRules> {
  switch (change.kind) {
    case 'create':
      return callApi(api.createRule, { body: change.rule });
    case 'update':
      return callApi(api.updateRule, { params: { ruleId: change.ruleId }, body: change.rule });
    case 'delete':
      return callApi(api.deleteRule, { params: { ruleId: change.ruleId } });
    case 'reorder':
      return callApi(api.reorderRules, { body: { ids: change.ids } });
  }
}

export function useChangeRules() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeRules,
    onSuccess: (rules) => {
      queryClient.setQueryData(moderationKeys.rules(), rules);
    },
    onError: () => {
      // Another administrator may have changed them: show the rules as they are.
      void queryClient.invalidateQueries({ queryKey: moderationKeys.rules() });
    },
  });
}
